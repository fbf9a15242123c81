package io.stockguard.testing;

import io.stockguard.StockGuardApplication;
import io.stockguard.journal.JournalProgress;
import io.stockguard.stock.SkuId;
import io.stockguard.testkit.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A real StockGuard instance in this JVM, on a random port, against a real test database.
 * Shared instances are reused by every test of the JVM (tests use their own SKU and order ids);
 * a test that needs its own settings or several instances starts its own and closes it.
 */
public final class RunningService implements AutoCloseable {

    public static final String API_KEY = "test-api-key-0123456789";
    public static final String ADMIN_KEY = "test-admin-key-0123456789";
    public static final String METRICS_KEY = "test-metrics-key-0123456789";

    private static final Map<TestDatabase.Kind, RunningService> SHARED = new ConcurrentHashMap<>();
    /** How long the journal's backlog may stand still before a wait for it to be applied fails. */
    private static final Duration JOURNAL_STALL_MAX = Duration.ofSeconds(60);
    /** How long a preheat may load no SKU before a wait for it fails. */
    private static final Duration PREHEAT_STALL_MAX = Duration.ofSeconds(30);

    private final ConfigurableApplicationContext context;
    private final TestDatabase database;
    private final JdbcTemplate jdbc;

    private RunningService(ConfigurableApplicationContext context, TestDatabase database) {
        this.context = context;
        this.database = database;
        this.jdbc = database.jdbc();
    }

    public static RunningService shared(TestDatabase.Kind kind) {
        return SHARED.computeIfAbsent(kind, k -> start(TestDatabase.fresh(k), Map.of()));
    }

    /** A fresh service on the Redis ledger (standard tier), on a fresh PostgreSQL database. */
    public static RunningService startRedis(String redisUrl, boolean cluster) {
        return startRedis(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL), redisUrl, cluster, Map.of());
    }

    public static RunningService startRedis(TestDatabase database, String redisUrl, boolean cluster,
            Map<String, String> settings, Class<?>... configurations) {
        // Two cores run the test, the service, PostgreSQL and Redis: a generous command timeout keeps
        // a busy machine from reading as a Redis failure. Tests that inject failures set their own.
        Map<String, String> all = new HashMap<>(Map.of("stockguard.ledger", "redis", "stockguard.redis.url", redisUrl,
                "stockguard.redis.cluster", Boolean.toString(cluster), "stockguard.redis.command-timeout", "2s"));
        all.putAll(settings);
        return start(database, all, configurations);
    }

    /** A fresh service of the full tier: the Redis ledger with Kafka as its journal (one-broker settings). */
    public static RunningService startFull(TestDatabase database, String redisUrl, String kafkaServers,
            Map<String, String> settings, Class<?>... configurations) {
        Map<String, String> all = new HashMap<>(Map.of("stockguard.journal", "kafka",
                "stockguard.kafka.bootstrap-servers", kafkaServers, "stockguard.kafka.replication-factor", "1",
                "stockguard.kafka.min-insync-replicas", "1", "stockguard.kafka.partitions", "4",
                "stockguard.kafka.topic", "stockguard.events." + java.util.UUID.randomUUID(),
                // Two cores run the test, the service, Kafka, PostgreSQL and Redis: generous bounds
                // keep a busy machine from reading as a Kafka failure. Tests of failures set their own.
                "stockguard.kafka.produce-timeout", "5s", "stockguard.kafka.request-timeout", "4s"));
        all.putAll(settings);
        return startRedis(database, redisUrl, false, all, configurations);
    }

    /**
     * Waits until everything journaled so far for the SKUs is applied to the database: at once
     * with the synchronous journal, after the writer caught up with Kafka in the full tier. How
     * fast the writer catches up depends on the machine, so the wait lasts while the journal's
     * backlog keeps shrinking; a minute without a new low fails it.
     */
    public void awaitJournalApplied(String... skus) {
        JournalProgress progress = bean(JournalProgress.class);
        for (String sku : skus) {
            SkuId id = SkuId.of(sku);
            Long[] mark = {null};
            Progress.awaitWhileShrinking("the journal of " + sku + " to be applied", () -> {
                if (mark[0] == null) {
                    mark[0] = progress.mark(id);
                }
                return progress.applied(id, mark[0]);
            }, progress::backlog, JOURNAL_STALL_MAX);
        }
    }

    /**
     * Waits until the preheat started on this service is DONE, for as long as it keeps getting
     * through SKUs (loaded, present or failed): its speed depends on the machine, so only 30 s
     * without one more fails the wait. Returns every status it read, in order.
     */
    public List<StockGuardClient.Response> awaitPreheatDone() {
        StockGuardClient admin = admin();
        List<StockGuardClient.Response> statuses = new ArrayList<>();
        Progress.awaitWhileGrowing("the preheat to finish", () -> {
            statuses.add(admin.send("GET", "/api/v1/admin/preheat", null));
            return "DONE".equals(statuses.getLast().text("state"));
        }, () -> {
            StockGuardClient.Response last = statuses.getLast();
            return last.number("loaded") + last.number("present") + last.number("failed");
        }, PREHEAT_STALL_MAX);
        return statuses;
    }

    public static RunningService start(TestDatabase database, Map<String, String> settings) {
        return start(database, settings, new Class<?>[0]);
    }

    /**
     * A fresh service with test configurations added to the application's own: for a part the
     * service does not have yet (a stand-in for another module), never to replace what is tested.
     */
    public static RunningService start(TestDatabase database, Map<String, String> settings,
            Class<?>... configurations) {
        Map<String, Object> properties = new HashMap<>();
        properties.put("server.port", "0");
        properties.put("spring.datasource.url", database.jdbcUrl());
        properties.put("spring.datasource.username", database.username());
        properties.put("spring.datasource.password", database.password());
        properties.put("stockguard.security.api-keys", "order-service:" + API_KEY);
        properties.put("stockguard.security.admin-keys", "ops:" + ADMIN_KEY);
        properties.put("stockguard.security.metrics-keys", "scraper:" + METRICS_KEY);
        properties.put("management.prometheus.metrics.export.enabled", "true");
        properties.putAll(settings);
        // As command-line arguments they outrank application.yml, as a deployment's settings would.
        String[] arguments = properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue())
                .toArray(String[]::new);
        ConfigurableApplicationContext context = new SpringApplicationBuilder(StockGuardApplication.class)
                .sources(configurations).run(arguments);
        return new RunningService(context, database);
    }

    public int port() {
        return ((WebServerApplicationContext) context).getWebServer().getPort();
    }

    public String baseUrl() {
        return "http://localhost:" + port();
    }

    public StockGuardClient client() {
        return new StockGuardClient(baseUrl(), API_KEY);
    }

    public StockGuardClient admin() {
        return new StockGuardClient(baseUrl(), ADMIN_KEY);
    }

    public StockGuardClient anonymous() {
        return new StockGuardClient(baseUrl(), null);
    }

    public TestDatabase database() {
        return database;
    }

    /** The sum of a Prometheus metric's series that carry {@code tag} (e.g. {@code path="database"}; "" for all). */
    public double metric(String name, String tag) {
        String body = admin().send("GET", "/actuator/prometheus", null).raw().body();
        double sum = 0;
        for (String line : body.split("\n")) {
            if ((line.startsWith(name + "{") || line.startsWith(name + " ")) && line.contains(tag)) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }

    /** Direct access to the service's database, for checking invariants behind the API. */
    public JdbcTemplate jdbc() {
        return jdbc;
    }

    /** Publishes an application event inside the service, as one of its modules would. */
    public void publish(Object event) {
        context.publishEvent(event);
    }

    public <T> T bean(Class<T> type) {
        return context.getBean(type);
    }

    /** Every bean of the type (for one whose class its package keeps to itself). */
    public <T> java.util.Collection<T> beans(Class<T> type) {
        return context.getBeansOfType(type).values();
    }

    /** Collects every application event of the type published from now on (for checking what the service told). */
    public <E> java.util.List<E> collect(Class<E> type) {
        java.util.List<E> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        context.addApplicationListener((org.springframework.context.ApplicationListener<org.springframework.context.ApplicationEvent>) e -> {
            if (e instanceof org.springframework.context.PayloadApplicationEvent<?> p && type.isInstance(p.getPayload())) {
                seen.add(type.cast(p.getPayload()));
            }
        });
        return seen;
    }

    @Override
    public void close() {
        context.close();
    }
}
