package io.stockguard.journal.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.testing.Ids;
import io.stockguard.testing.LedgerChecks;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testkit.KafkaCluster;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TestCertificates;
import io.stockguard.testkit.TestDatabase;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;

/**
 * {@code stockguard.kafka.properties} reaches every Kafka client of the service. The only
 * listener the service is given serves clients that log in with SASL/PLAIN, or that speak TLS and
 * show a client certificate, and the login or the certificates are in the passthrough alone: the admin client must create the topics, the producer journal every
 * reservation, the writer's consumer apply and commit them, or the checks below fail.
 */
class KafkaClientPropertiesIT {

    private static final int RESERVATIONS = 20;
    private static final String GROUP = "stockguard-writer";

    @Test
    void aBrokerDemandingASaslLoginServesEveryClientGivenItByThePassthrough() throws Exception {
        KafkaCluster.PlainLogin login = new KafkaCluster.PlainLogin("stockguard", "pw-" + UUID.randomUUID());
        try (RedisServer redis = RedisServer.start();
                KafkaCluster kafka = KafkaCluster.singleWithPlainLogin(login)) {
            String servers = kafka.saslBootstrapServers();
            assertThat(clusterAnswers(servers, Map.of())).as("the SASL listener without a login").isFalse();
            assertThat(clusterAnswers(servers, login.clientProperties())).as("the SASL listener with the login")
                    .isTrue();
            everyClientServedThrough(redis, servers, login.clientProperties(), "sasl");
        }
    }

    /**
     * TLS both ways: the service checks the broker's certificate against the CA it is given, and
     * the broker serves only a client showing a certificate of that CA. The settings are the
     * passthrough's alone, as docs/operations.md ("A secured Kafka") gives them.
     */
    @Test
    void aBrokerDemandingMutualTlsServesEveryClientGivenItsCertificatesByThePassthrough() throws Exception {
        TestCertificates certificates = TestCertificates.create();
        try (RedisServer redis = RedisServer.start();
                KafkaCluster kafka = KafkaCluster.singleWithMutualTls(certificates)) {
            String servers = kafka.tlsBootstrapServers();
            Map<String, String> tls = KafkaCluster.tlsClientProperties(certificates);
            assertThat(clusterAnswers(servers, Map.of())).as("the TLS listener in plain text").isFalse();
            Map<String, String> noCertificate = new HashMap<>(tls);
            noCertificate.remove("ssl.keystore.type");
            noCertificate.remove("ssl.keystore.location");
            assertThat(clusterAnswers(servers, noCertificate)).as("the TLS listener without a client certificate")
                    .isFalse();
            Map<String, String> stranger = new HashMap<>(tls);
            stranger.put("ssl.truststore.location", certificates.strangerCaCertificate().toString());
            assertThat(clusterAnswers(servers, stranger)).as("a client that does not trust the broker's CA").isFalse();
            assertThat(clusterAnswers(servers, tls)).as("the TLS listener with both certificates").isTrue();
            everyClientServedThrough(redis, servers, tls, "tls");
        }
    }

    /**
     * A full-tier service given only {@code clientProperties} for its Kafka clients: the admin
     * client creates the topics, the producer journals every reservation, the writer's consumer
     * applies and commits them.
     */
    private static void everyClientServedThrough(RedisServer redis, String servers, Map<String, String> clientProperties,
            String name) throws Exception {
        String topic = "stockguard." + name + "." + UUID.randomUUID();
        Map<String, String> settings = new HashMap<>(Map.of("stockguard.kafka.topic", topic));
        clientProperties.forEach((key, value) -> settings.put("stockguard.kafka.properties." + key, value));
        try (RunningService service = RunningService.startFull(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                redis.uri(), servers, settings)) {
            String sku = Ids.sku(name);
            service.client().putSku(sku, 1_000);
            for (int i = 0; i < RESERVATIONS; i++) {
                StockGuardClient.Response reserved = service.client().reserve(Ids.order(name),
                        new StockGuardClient.Line(sku, 1));
                assertThat(reserved.ok()).as("reservation %d: %s", i, reserved.raw().body()).isTrue();
            }
            service.awaitJournalApplied(sku);

            assertThat(service.metric("stockguard_journal_path_total", "path=\"kafka\""))
                    .as("events the producer journaled to Kafka").isGreaterThanOrEqualTo(RESERVATIONS);
            assertThat(service.metric("stockguard_journal_path_total", "path=\"database\""))
                    .as("events journaled to the database instead").isZero();
            assertThat(LedgerChecks.totals(service.jdbc(), sku).reserved()).as("reserved in the database")
                    .isEqualTo(RESERVATIONS);
            LedgerChecks.assertCountersMatchJournal(service.jdbc(), sku);

            try (Admin admin = admin(servers, clientProperties)) {
                assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS)).as("topics the service created")
                        .contains(topic, topic + ".dlt");
                long committed = admin.listConsumerGroupOffsets(GROUP).partitionsToOffsetAndMetadata()
                        .get(10, TimeUnit.SECONDS).entrySet().stream()
                        .filter(e -> e.getKey().topic().equals(topic))
                        .mapToLong(e -> e.getValue() == null ? 0 : e.getValue().offset()).sum();
                assertThat(committed).as("offsets the writer's consumer committed").isGreaterThanOrEqualTo(
                        RESERVATIONS);
            }
        }
    }

    /** Whether the brokers at {@code servers} tell a client with these settings who they are. */
    private static boolean clusterAnswers(String servers, Map<String, String> settings) throws InterruptedException {
        try (Admin admin = admin(servers, settings)) {
            return !admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty();
        } catch (ExecutionException | TimeoutException e) {
            return false;
        }
    }

    private static Admin admin(String servers, Map<String, String> settings) {
        Map<String, Object> config = new HashMap<>(settings);
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3_000);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5_000);
        return Admin.create(config);
    }
}
