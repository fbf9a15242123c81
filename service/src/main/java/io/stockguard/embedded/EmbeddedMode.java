package io.stockguard.embedded;

import java.nio.file.Path;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.StringUtils;

/**
 * The service runs embedded when no external database is configured: then it starts its own
 * PostgreSQL under the data directory and, on first start, generates its own keys.
 */
final class EmbeddedMode implements Condition {

    static final String DATA_DIR_PROPERTY = "stockguard.data-dir";
    static final String DATA_DIR_DEFAULT = "./data";

    static boolean isEmbedded(Environment environment) {
        return !StringUtils.hasText(environment.getProperty("spring.datasource.url"));
    }

    static Path dataDirectory(Environment environment) {
        return Path.of(environment.getProperty(DATA_DIR_PROPERTY, DATA_DIR_DEFAULT)).toAbsolutePath().normalize();
    }

    @Override
    public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
        return isEmbedded(context.getEnvironment());
    }
}
