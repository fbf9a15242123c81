package io.stockguard.platform;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import javax.sql.DataSource;
import org.springframework.boot.flyway.autoconfigure.FlywayConfigurationCustomizer;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.type.LogicalType;

@Configuration(proxyBeanMethods = false)
class PlatformConfiguration {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(PlatformConfiguration.class);

    /**
     * UTC, ticking in microseconds: both databases store microseconds, so an instant handed to a
     * caller is exactly the one a later read returns.
     */
    @Bean
    Clock clock(Environment environment) {
        Clock utc = Clock.tick(Clock.systemUTC(), Duration.ofNanos(1_000));
        String offsetFile = environment.getProperty("stockguard.testing.clock-offset-file", "");
        if (offsetFile.isBlank()) {
            return utc;
        }
        log.warn("the clock is skewed by the offset in {} (fault injection for tests; never in production)",
                offsetFile);
        return new SkewedClock(utc, Path.of(offsetFile));
    }

    @Bean
    SqlDialect sqlDialect(DataSource dataSource) {
        return SqlDialect.of(dataSource);
    }

    /** One migration set per database family: {@code db/migration/postgresql} or {@code db/migration/mysql}. */
    @Bean
    FlywayConfigurationCustomizer migrationsPerDialect() {
        return configuration -> configuration.locations(
                "classpath:db/migration/" + SqlDialect.of(configuration.getDataSource()).folder());
    }

    /**
     * Strict JSON: a quantity of {@code 1.5} or {@code "2"} is refused rather than silently read as
     * 1 or 2, an id of {@code 42} is refused rather than read as "42", an unknown or repeated field
     * is refused rather than ignored. In an inventory API a
     * lenient parser turns a caller's bug into a wrong stock change.
     */
    @Bean
    JsonMapperBuilderCustomizer strictJson() {
        return builder -> builder
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .withCoercionConfig(LogicalType.Textual, text -> text
                        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail));
    }
}
