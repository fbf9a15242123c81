package io.stockguard.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.stockguard.testkit.PostgresServer;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The remote network really is remote: every database and Redis round trip through its links takes
 * at least the round trip it promises, and the local network hands out the servers' own addresses.
 */
class NetworkIT {

    private static final int TRIPS = 20;

    @Test
    void theRemoteNetworkDelaysEveryRoundTripToEachServer() throws Exception {
        TestDatabase database = PostgresServer.instance().newDatabase();
        try (RedisServer redis = RedisServer.start(); Network.Links links = Network.REMOTE.links()) {
            String redisUri = links.redis(redis.uri() + "/2");
            assertThat(redisUri).endsWith("/2").doesNotContain(":" + redis.port() + "/");
            RedisClient client = RedisClient.create(redisUri);
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                connection.sync().set("network-it", "1");
                long fastest = Long.MAX_VALUE;
                for (int i = 0; i < TRIPS; i++) {
                    long start = System.nanoTime();
                    assertThat(connection.sync().get("network-it")).isEqualTo("1");
                    fastest = Math.min(fastest, System.nanoTime() - start);
                }
                assertThat(Duration.ofNanos(fastest)).isGreaterThanOrEqualTo(Duration.ofNanos(200_000));
            } finally {
                client.shutdown();
            }
            // It was the server's logical database 2, through the proxy.
            RedisClient direct = RedisClient.create(redis.uri() + "/2");
            try (StatefulRedisConnection<String, String> connection = direct.connect()) {
                assertThat(connection.sync().get("network-it")).isEqualTo("1");
            } finally {
                direct.shutdown();
            }

            TestDatabase remote = links.database(database);
            assertThat(remote.port()).isNotEqualTo(database.port());
            try (Connection connection = remote.dataSource().getConnection();
                    Statement statement = connection.createStatement()) {
                long fastest = Long.MAX_VALUE;
                for (int i = 0; i < TRIPS; i++) {
                    long start = System.nanoTime();
                    statement.execute("SELECT 1");
                    fastest = Math.min(fastest, System.nanoTime() - start);
                }
                assertThat(Duration.ofNanos(fastest)).isGreaterThanOrEqualTo(Duration.ofMillis(1));
            }
        }
    }

    /**
     * A transaction crosses the link in about one round trip a statement. With Nagle's algorithm on
     * the link's sockets, pieces written behind an unacknowledged one waited for the peer's delayed
     * ACK (40 ms), and a database-tier reservation took 52 ms instead of 10.
     */
    @Test
    void aTransactionCostsRoundTripsNotStalls() throws Exception {
        TestDatabase database = PostgresServer.instance().newDatabase();
        try (Network.Links links = Network.REMOTE.links();
                Connection connection = links.database(database).dataSource().getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE counter (id int PRIMARY KEY, n bigint)");
            statement.execute("INSERT INTO counter VALUES (1, 0)");
            connection.setAutoCommit(false);
            List<Long> transactions = new java.util.ArrayList<>();
            for (int i = 0; i < TRIPS; i++) {
                long start = System.nanoTime();
                try (java.sql.ResultSet row = statement.executeQuery("SELECT n FROM counter WHERE id = 1 FOR UPDATE")) {
                    assertThat(row.next()).isTrue();
                }
                statement.executeUpdate("UPDATE counter SET n = n + 1 WHERE id = 1");
                statement.executeUpdate("INSERT INTO counter VALUES (" + (i + 2) + ", 0)");
                connection.commit();
                transactions.add(System.nanoTime() - start);
            }
            long median = transactions.stream().sorted().toList().get(TRIPS / 2);
            // Four round trips of 1 ms; a single 40 ms stall would be far above this bound.
            assertThat(Duration.ofNanos(median)).isBetween(Duration.ofMillis(4), Duration.ofMillis(30));
        }
    }

    @Test
    void theLocalNetworkIsTheServersOwnAddresses() {
        TestDatabase database = PostgresServer.instance().newDatabase();
        try (Network.Links links = Network.LOCAL.links()) {
            assertThat(links.database(database)).isEqualTo(database);
            assertThat(links.redis("redis://127.0.0.1:6379/3")).isEqualTo("redis://127.0.0.1:6379/3");
        }
    }
}
