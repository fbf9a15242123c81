package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.stockguard.testing.Ids;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TestCertificates;
import io.stockguard.testkit.TestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Redis as a careful shop runs it: TLS both ways (the service checks the server's certificate
 * against the CA it is given and shows its own) and an ACL user that may run only what the service
 * needs: the very rules docs/operations.md ships ("A secured Redis"). The standard tier serves
 * every kind of call through it from Redis, and the user can do nothing else.
 */
class SecuredRedisIT {

    private static final Path OPERATIONS = Path.of("..", "docs", "operations.md");
    private static final Pattern ACL_LINE = Pattern.compile("ACL SETUSER stockguard (on >REPLACE-ME .*)");

    @Test
    void theStandardTierServesEveryCallThroughMutualTlsAsTheShippedAclUser() throws IOException {
        TestCertificates certificates = TestCertificates.create();
        String password = "pw-" + UUID.randomUUID();
        String rules = shippedAclRules().replace(">REPLACE-ME", ">" + password);
        try (RedisServer redis = RedisServer.startWithTls(certificates, List.of("stockguard " + rules))) {
            Map<String, String> settings = new HashMap<>();
            settings.put("stockguard.redis.username", "stockguard");
            settings.put("stockguard.redis.password", password);
            settings.put("stockguard.redis.tls.ca-certificate", certificates.caCertificate().toString());
            settings.put("stockguard.redis.tls.client-certificate", certificates.clientCertificate().toString());
            settings.put("stockguard.redis.tls.client-key", certificates.clientKey().toString());
            try (RunningService service = RunningService.startRedis(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                    "rediss://127.0.0.1:" + redis.tlsPort(), false, settings)) {
                StockGuardClient client = service.client();
                String sku = Ids.sku("secured");
                assertThat(client.putSku(sku, 100, 2).status()).isEqualTo(201);
                String kept = Ids.order("secured");
                String dropped = Ids.order("secured");
                assertThat(client.reserve(kept, new StockGuardClient.Line(sku, 3)).status()).isEqualTo(201);
                assertThat(client.reserve(dropped, new StockGuardClient.Line(sku, 2)).status()).isEqualTo(201);
                assertThat(redis.command("EXISTS", "sg:{o:" + kept + "}")).as("the order's record in Redis")
                        .isEqualTo(":1");
                assertThat(client.confirm(kept).ok()).isTrue();
                assertThat(client.cancel(dropped).ok()).isTrue();
                assertThat(client.restock(sku, 10).ok()).isTrue();
                assertThat(service.admin().freeze(sku, "checking the ACL").ok()).isTrue();
                assertThat(service.admin().unfreeze(sku, "checked").ok()).isTrue();
                StockGuardClient.Response stock = client.sku(sku);
                assertThat(stock.number("total")).isEqualTo(110);
                assertThat(stock.number("sold")).isEqualTo(3);
                assertThat(stock.number("reserved")).isZero();
                assertThat(service.admin().send("POST", "/api/v1/admin/skus/" + sku + "/probe", null).status())
                        .isEqualTo(200);
                assertThat(service.admin().send("POST", "/api/v1/admin/preheat", null).status()).isBetween(200, 202);
                service.awaitPreheatDone();
                assertThat(service.admin().send("GET", "/actuator/health", null).raw().body())
                        .contains("\"hotStore\"").doesNotContain("NOPERM");
            }

            // The same user over the plain port: its keys, and nothing that could harm the server.
            assertThat(redis.commandAs("stockguard", password, "FLUSHALL")).startsWith("-NOPERM");
            assertThat(redis.commandAs("stockguard", password, "CONFIG", "SET", "maxmemory", "1")).startsWith("-NOPERM");
            assertThat(redis.commandAs("stockguard", password, "GET", "not-ours")).startsWith("-NOPERM");
        }
    }

    @Test
    void aServiceThatDoesNotTrustTheServersCaOrShowsNoCertificateIsTurnedAway() {
        TestCertificates certificates = TestCertificates.create();
        try (RedisServer redis = RedisServer.startWithTls(certificates, List.of())) {
            assertThat(reaches("rediss://127.0.0.1:" + redis.tlsPort(),
                    new RedisProperties.Tls(certificates.strangerCaCertificate().toString(),
                            certificates.clientCertificate().toString(), certificates.clientKey().toString())))
                    .as("a CA that did not sign the server's certificate").isFalse();
            assertThat(reaches("rediss://127.0.0.1:" + redis.tlsPort(),
                    new RedisProperties.Tls(certificates.caCertificate().toString(), null, null)))
                    .as("no client certificate").isFalse();
            assertThat(reaches("rediss://127.0.0.1:" + redis.tlsPort(),
                    new RedisProperties.Tls(certificates.caCertificate().toString(),
                            certificates.clientCertificate().toString(), certificates.clientKey().toString())))
                    .as("both certificates").isTrue();
        }
    }

    @Test
    void certificatesWithoutATlsUrlAreRefusedAtStartNamingTheSetting() {
        TestCertificates certificates = TestCertificates.create();
        Map<String, String> settings = Map.of("stockguard.redis.tls.ca-certificate",
                certificates.caCertificate().toString());
        assertThatThrownBy(() -> RunningService.startRedis(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                "redis://127.0.0.1:1", false, settings))
                .hasRootCauseMessage("stockguard.redis.tls.* names certificates, but stockguard.redis.url "
                        + "(redis://127.0.0.1:1) is not a TLS URL: use rediss:// (or rediss-sentinel://), or leave "
                        + "the certificates out");
    }

    /** The rules after {@code ACL SETUSER stockguard} in docs/operations.md, password placeholder and all. */
    static String shippedAclRules() throws IOException {
        Matcher matcher = ACL_LINE.matcher(Files.readString(OPERATIONS));
        assertThat(matcher.find()).as("docs/operations.md ships an ACL SETUSER stockguard line").isTrue();
        return matcher.group(1).strip();
    }

    /** Whether a gateway with these certificates gets a working connection to {@code url}. */
    private static boolean reaches(String url, RedisProperties.Tls tls) {
        RedisGateway gateway = new RedisGateway(ScriptFixture.properties(url, tls), CircuitBreaker.ofDefaults("tls"));
        try {
            return gateway.reachable();
        } finally {
            gateway.close();
        }
    }
}
