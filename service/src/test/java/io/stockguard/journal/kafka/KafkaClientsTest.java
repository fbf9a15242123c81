package io.stockguard.journal.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * How {@code stockguard.kafka.properties} joins the configuration of the service's Kafka clients:
 * it reaches every client, overrides the service's tuning defaults, and may not touch what the
 * journal's guarantees depend on. Bound as Spring Boot binds it at start-up.
 */
class KafkaClientsTest {

    private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required "
            + "username=\"stockguard\" password=\"pw-0123456789\";";

    @Test
    void thePassthroughReachesTheProducerTheConsumerAndTheAdminClient() {
        KafkaClients clients = new KafkaClients(bind(Map.of(
                "stockguard.kafka.properties.security.protocol", "SASL_SSL",
                "stockguard.kafka.properties.sasl.mechanism", "PLAIN",
                "stockguard.kafka.properties.sasl.jaas.config", JAAS,
                "stockguard.kafka.properties.ssl.truststore.location", "/etc/kafka/truststore.p12",
                "stockguard.kafka.properties.ssl.endpoint.identification.algorithm", "")));
        for (Map<String, Object> config : List.of(clients.producer(), clients.consumer(), clients.admin())) {
            assertThat(config).containsEntry("security.protocol", "SASL_SSL").containsEntry("sasl.mechanism", "PLAIN")
                    .containsEntry("sasl.jaas.config", JAAS)
                    .containsEntry("ssl.truststore.location", "/etc/kafka/truststore.p12")
                    .containsEntry("ssl.endpoint.identification.algorithm", "");
        }
        assertThat(clients.unknownKeys()).isEmpty();
    }

    @Test
    void thePassthroughOverridesTheServicesTuningDefaults() {
        KafkaClients defaults = new KafkaClients(bind(Map.of()));
        assertThat(defaults.producer()).containsEntry("reconnect.backoff.max.ms", 1_000);
        assertThat(defaults.consumer()).containsEntry("reconnect.backoff.max.ms", 1_000)
                .containsEntry("session.timeout.ms", 6_000);
        assertThat(defaults.admin()).containsEntry("default.api.timeout.ms", 5_000);

        KafkaClients tuned = new KafkaClients(bind(Map.of(
                "stockguard.kafka.properties.reconnect.backoff.max.ms", "5000",
                "stockguard.kafka.properties.session.timeout.ms", "45000",
                "stockguard.kafka.properties.default.api.timeout.ms", "20000")));
        assertThat(tuned.producer()).containsEntry("reconnect.backoff.max.ms", "5000");
        assertThat(tuned.consumer()).containsEntry("reconnect.backoff.max.ms", "5000")
                .containsEntry("session.timeout.ms", "45000").containsEntry("default.api.timeout.ms", "20000");
        assertThat(tuned.admin()).containsEntry("default.api.timeout.ms", "20000");
    }

    @Test
    void everyGuaranteeIsRefusedNamingItsKeyButNeverItsValue() {
        Map<String, String> settings = new HashMap<>();
        KafkaClients.GUARANTEES.keySet().forEach(key -> settings.put("stockguard.kafka.properties." + key,
                "s3cret-" + key));
        assertThatThrownBy(() -> bind(settings)).rootCause().isInstanceOf(IllegalArgumentException.class)
                .satisfies(e -> {
                    for (String key : KafkaClients.GUARANTEES.keySet()) {
                        assertThat(e.getMessage()).contains("stockguard.kafka.properties." + key + " cannot be set: ")
                                .doesNotContain("s3cret-" + key);
                    }
                });
        assertThatThrownBy(() -> bind(Map.of("stockguard.kafka.properties.acks", "1"))).rootCause()
                .hasMessage("stockguard.kafka.properties.acks cannot be set: an event is acknowledged only once "
                        + "every in-sync replica has it (acks=all)");
        assertThatThrownBy(() -> bind(Map.of("stockguard.kafka.properties.linger.ms", "50"))).rootCause()
                .hasMessage("stockguard.kafka.properties.linger.ms cannot be set: use stockguard.kafka.linger");
    }

    @Test
    void theRefusedKeysAreExactlyTheOnesTheServiceSetsItself() {
        KafkaProperties properties = bind(Map.of("stockguard.kafka.writer.group-id", "writers",
                "stockguard.kafka.bootstrap-servers", "k1:9093"));
        assertThat(KafkaClients.guaranteedKeys(properties)).isEqualTo(KafkaClients.GUARANTEES.keySet());

        KafkaClients clients = new KafkaClients(properties);
        assertThat(clients.producer()).containsEntry("acks", "all").containsEntry("enable.idempotence", true)
                .containsEntry("max.in.flight.requests.per.connection", 5).containsEntry("bootstrap.servers", "k1:9093");
        assertThat(clients.consumer()).containsEntry("group.id", "writers").containsEntry("enable.auto.commit", false)
                .containsEntry("auto.offset.reset", "earliest").containsEntry("isolation.level", "read_uncommitted")
                .containsEntry("bootstrap.servers", "k1:9093");
        assertThat(clients.admin()).containsEntry("bootstrap.servers", "k1:9093");
        for (Map<String, Object> config : List.of(clients.producer(), clients.consumer(), clients.admin())) {
            assertThat(config).doesNotContainKeys("transactional.id", "group.instance.id");
        }
    }

    /** operations.md lists the refused keys for operators; a new one cannot go unlisted. */
    @Test
    void operationsGuideListsEveryRefusedKey() throws IOException {
        String guide = Files.readString(Path.of("..", "docs", "operations.md"), StandardCharsets.UTF_8);
        for (String key : KafkaClients.GUARANTEES.keySet()) {
            assertThat(guide).as("docs/operations.md's row of %s", key).contains("| `" + key + "` | ");
        }
    }

    @Test
    void aPassthroughOutsideItsLimitsIsRefused() {
        Map<String, String> many = new LinkedHashMap<>();
        for (int i = 0; i <= KafkaClients.ENTRIES_MAX; i++) {
            many.put("x" + i, "v");
        }
        assertThat(KafkaClients.refusals(many)).containsExactly("stockguard.kafka.properties has 65 entries; at most 64");
        assertThat(KafkaClients.refusals(Map.of("k".repeat(KafkaClients.KEY_LENGTH_MAX + 1), "v"))).singleElement()
                .asString().contains("longer than 200 characters");
        assertThat(KafkaClients.refusals(Map.of("ssl.truststore.certificates",
                "x".repeat(KafkaClients.VALUE_LENGTH_MAX + 1)))).singleElement().asString()
                .startsWith("stockguard.kafka.properties.ssl.truststore.certificates is longer than 65536 characters");
        assertThat(KafkaClients.refusals(Map.of("security.protocol", "SSL"))).isEmpty();
    }

    @Test
    void aValueKafkaCannotReadStopsTheStartNamingItsKey() {
        assertThatThrownBy(() -> new KafkaClients(bind(Map.of("stockguard.kafka.properties.metadata.max.age.ms",
                "soon")))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("stockguard.kafka.properties").hasMessageContaining("metadata.max.age.ms");
        assertThatThrownBy(() -> new KafkaClients(bind(Map.of("stockguard.kafka.properties.security.protocol",
                "SASL_SSLL")))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("security.protocol");
    }

    @Test
    void keysNoKafkaClientKnowsAreReportedAndPassedOn() {
        KafkaClients clients = new KafkaClients(bind(Map.of("stockguard.kafka.properties.sasl.jass.config", JAAS,
                "stockguard.kafka.properties.client.id", "stockguard-eu-1")));
        assertThat(clients.unknownKeys()).containsExactly("sasl.jass.config");
        assertThat(clients.consumer()).containsKey("sasl.jass.config").containsEntry("client.id", "stockguard-eu-1");
    }

    /** What operations.md tells operators: a secret such as the JAAS line can come from the environment. */
    @Test
    void environmentVariablesSetKafkaKeys() {
        var environment = new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                Map.of("STOCKGUARD_KAFKA_PROPERTIES_SECURITY_PROTOCOL", "SASL_SSL",
                        "STOCKGUARD_KAFKA_PROPERTIES_SASL_JAAS_CONFIG", JAAS,
                        "STOCKGUARD_KAFKA_PROPERTIES_SSL_TRUSTSTORE_LOCATION", "/etc/kafka/truststore.p12"));
        KafkaProperties properties = new Binder(ConfigurationPropertySources.from(environment))
                .bindOrCreate("stockguard.kafka", KafkaProperties.class);
        assertThat(properties.properties()).containsOnly(Map.entry("security.protocol", "SASL_SSL"),
                Map.entry("sasl.jaas.config", JAAS), Map.entry("ssl.truststore.location", "/etc/kafka/truststore.p12"));
    }

    @Test
    void printedPropertiesNameThePassthroughKeysButNotTheirValues() {
        KafkaProperties properties = bind(Map.of("stockguard.kafka.properties.sasl.jaas.config", JAAS));
        assertThat(properties.toString()).contains("sasl.jaas.config").doesNotContain("pw-0123456789");
    }

    private static KafkaProperties bind(Map<String, String> settings) {
        return new Binder(new MapConfigurationPropertySource(settings)).bindOrCreate("stockguard.kafka",
                KafkaProperties.class);
    }
}
