package io.stockguard.bench.stockguard;

import io.stockguard.StockGuardApplication;
import io.stockguard.bench.Catalogue;
import io.stockguard.bench.Contender;
import io.stockguard.journal.EventIds;
import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import io.stockguard.reservation.Reservations;
import io.stockguard.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * StockGuard itself, its service started in this JVM on a fresh database on first use, reached
 * through the {@link Transport} the contender is made with: {@link Reservations} called directly,
 * exactly as its HTTP controller does, or the HTTP API, as an order service reaches it.
 */
public class LedgerContender implements Contender {

    static final String API_KEY = "bench-api-key-0123456789";
    private static final int BUCKETS = 8;
    private static final int LOAD_BATCH = 2_000;
    /** A reset that deadlocked with the running service is made again at most this often in all. */
    private static final int RESET_ATTEMPTS_MAX = 5;

    private final String name;
    private final String description;
    private final Supplier<TestDatabase> databases;
    private final Map<String, String> settings;
    private final Transport transport;
    /** Volatile: a shutdown hook's thread closes it while a run may be using it. */
    protected volatile ConfigurableApplicationContext service;
    /** Guards handing a started service over against closing: one started meanwhile is closed too. */
    private final Object lifecycle = new Object();
    private volatile boolean closed;
    private TestDatabase database;
    /** Order ids of the reservations acknowledged in the last run, merged from each session at its end. */
    private final Queue<String> acknowledged = new ConcurrentLinkedQueue<>();
    /** HTTP connections the last run's lean sessions opened. */
    private final LongAdder connections = new LongAdder();

    public LedgerContender(String name, String description, Supplier<TestDatabase> databases,
            Map<String, String> settings, Transport transport) {
        this.name = name;
        this.description = description;
        this.databases = databases;
        this.settings = settings;
        this.transport = transport;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public Family family() {
        return Family.STOCKGUARD;
    }

    @Override
    public boolean claimsCorrectness() {
        return true;
    }

    /**
     * Empties the tables and loads the catalogue; the service starts on the first load and keeps
     * running, so every measured run after the warm-up meets warm code. Its cache of bucket counts
     * stays right: every run loads the same SKUs with the same bucket count.
     */
    @Override
    public void load(Catalogue catalogue) throws Exception {
        requireOpen();
        acknowledged.clear();
        connections.reset();
        if (service == null) {
            database = databases.get();
            migrate();
            bulkLoad(catalogue);
            analyze();
            start();
        } else {
            reset();
            bulkLoad(catalogue);
            analyze();
        }
        prepare(catalogue);
    }

    /**
     * Empties the tables under the running service. Its background work (the outbox sweeper, the
     * probe, a hand-over) reads some of them meanwhile, and a TRUNCATE of many tables can deadlock
     * with a statement that locks two of them in another order (seen once in the clean-clone suite);
     * the database then aborts one side, and the reset is made again, a bounded number of times.
     */
    private void reset() throws SQLException {
        String reset = SqlStatements.load("stockguard", dialect()).get("reset");
        for (int attempt = 1; ; attempt++) {
            try (Connection connection = connect(); Statement statement = connection.createStatement()) {
                statement.execute(reset);
                return;
            } catch (SQLException e) {
                boolean deadlock = "40P01".equals(e.getSQLState()) || "40001".equals(e.getSQLState());
                if (!deadlock || attempt >= RESET_ATTEMPTS_MAX) {
                    throw e;
                }
            }
        }
    }

    /** The settings the service starts with, on top of the database and API key. */
    protected Map<String, String> settings() {
        return settings;
    }

    /**
     * Classes the service starts with besides the application itself: configuration that replaces
     * part of it (the HTTP ceiling's ledger). None by default.
     */
    protected List<Class<?>> extraSources() {
        return List.of();
    }

    /**
     * Runs after the catalogue is in the database and the service is up, before the run: for
     * stores beside the database (the hot store) to be loaded from it.
     */
    protected void prepare(Catalogue catalogue) throws Exception {
    }

    private void start() {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("server.port", "0");
        // A graceful shutdown would wait up to 30 s for the requests of clients still running when
        // the bench is stopped; nothing is left to finish when the bench closes a service.
        properties.put("server.shutdown", "immediate");
        properties.put("spring.datasource.url", database.jdbcUrl());
        properties.put("spring.datasource.username", database.username());
        properties.put("spring.datasource.password", database.password());
        properties.put("spring.datasource.hikari.maximum-pool-size", "64");
        // Eight services share the bench's PostgreSQL (400 connections) with the database contenders,
        // which open one connection per client (256 at the top of the ladder): a service holds its 64
        // while it is busy, and gives back all but 8 within a minute of idling (Hikari's housekeeping
        // runs every 30 s). A pool fixed at 64 would hold 512 connections before the first run.
        properties.put("spring.datasource.hikari.minimum-idle", "8");
        properties.put("spring.datasource.hikari.idle-timeout", "30000");
        properties.put("stockguard.security.api-keys", "bench:" + API_KEY);
        properties.put("logging.level.root", "WARN");
        requireOpen();
        properties.putAll(settings());
        // No shutdown hook of Spring's own: the bench's closes the service before the Redis and
        // Kafka it uses, instead of racing them.
        List<Class<?>> sources = new ArrayList<>(List.of(StockGuardApplication.class));
        sources.addAll(extraSources());
        ConfigurableApplicationContext started = new SpringApplicationBuilder(sources.toArray(Class<?>[]::new))
                .registerShutdownHook(false).run(properties.entrySet().stream()
                        .map(e -> "--" + e.getKey() + "=" + e.getValue()).toArray(String[]::new));
        // Not locked while it starts: a close meanwhile goes on stopping the servers the start is
        // waiting for (it then fails sooner), and the service, if it did start, is closed here.
        synchronized (lifecycle) {
            if (!closed) {
                service = started;
                return;
            }
        }
        started.close();
        throw new IllegalStateException(name + " was closed while its service started");
    }

    /** Creates the schema with the service's own migrations. */
    private void migrate() {
        org.flywaydb.core.Flyway.configure()
                .dataSource(database.jdbcUrl(), database.username(), database.password())
                .locations("classpath:db/migration/" + dialect().folder()).load().migrate();
    }

    /**
     * Refreshes the planner's statistics after the load, as a catalogue import does in production.
     * Without it every run met tables the planner last saw empty (truncated by the reset), and a
     * run's speed depended on whether autovacuum analysed them before or during it: the same code
     * measured 1,500 and 6,300 attempts/s on the 100,000-SKU catalogue in consecutive rounds.
     */
    private void analyze() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute(SqlStatements.load("stockguard", dialect()).get("analyze"));
        }
    }

    /** Writes the catalogue in batches. */
    private void bulkLoad(Catalogue catalogue) throws SQLException {
        SqlStatements sql = SqlStatements.load("stockguard", dialect());
        try (Connection connection = connect()) {
            connection.setAutoCommit(false);
            try (PreparedStatement sku = connection.prepareStatement(sql.get("insertSku"));
                    PreparedStatement bucket = connection.prepareStatement(sql.get("insertBucket"));
                    PreparedStatement event = connection.prepareStatement(sql.get("insertEvent"))) {
                int n = 0;
                for (String id : catalogue.skus()) {
                    sku.setString(1, id);
                    sku.setInt(2, BUCKETS);
                    sku.addBatch();
                    for (int b = 0; b < BUCKETS; b++) {
                        long share = catalogue.unitsPerSku() / BUCKETS + (b < catalogue.unitsPerSku() % BUCKETS ? 1 : 0);
                        bucket.setString(1, id);
                        bucket.setInt(2, b);
                        bucket.setLong(3, share);
                        bucket.setLong(4, share);
                        bucket.addBatch();
                        event.setString(1, EventIds.next());
                        event.setString(2, id);
                        event.setInt(3, b);
                        event.setLong(4, share);
                        event.setLong(5, share);
                        event.addBatch();
                    }
                    if (++n % LOAD_BATCH == 0) {
                        sku.executeBatch();
                        bucket.executeBatch();
                        event.executeBatch();
                    }
                }
                sku.executeBatch();
                bucket.executeBatch();
                event.executeBatch();
            }
            connection.commit();
        }
    }

    @Override
    public Session open() {
        requireOpen();
        Session calls = switch (transport) {
            case IN_PROCESS -> new InProcessSession(service.getBean(Reservations.class));
            case LEAN_HTTP -> new LeanHttpSession(port(), API_KEY, connections);
            case CLIENT -> new StockGuardClientSession(port(), API_KEY);
        };
        return new Acknowledging(calls);
    }

    /**
     * Keeps the order ids a session saw acknowledged and hands them over when it ends, so the
     * request loop shares no state with other sessions.
     */
    private final class Acknowledging implements Session {

        private final Session calls;
        private final List<String> mine = new ArrayList<>();

        Acknowledging(Session calls) {
            this.calls = calls;
        }

        @Override
        public Attempt reserve(String sku, int qty, String orderId) throws Exception {
            Attempt attempt = calls.reserve(sku, qty, orderId);
            if (attempt.outcome() == Outcome.SOLD) {
                mine.add(orderId);
            }
            return attempt;
        }

        @Override
        public long read(String sku) throws Exception {
            return calls.read(sku);
        }

        @Override
        public void close() throws Exception {
            acknowledged.addAll(mine);
            calls.close();
        }
    }

    /**
     * Reservations acknowledged in the last run that the database does not hold as reserved: an
     * acknowledgement that would not survive a crash of the hot store (I2). Must be 0.
     */
    public long acknowledgedMissingFromDatabase() throws SQLException {
        Set<String> stored = new HashSet<>();
        try (Connection connection = connect(); Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery(SqlStatements.load("stockguard", dialect())
                        .get("heldOrders"))) {
            while (rs.next()) {
                stored.add(rs.getString(1));
            }
        }
        return acknowledged.stream().filter(order -> !stored.contains(order)).count();
    }

    /** How many reservations the last run acknowledged. */
    public int acknowledgedCount() {
        return acknowledged.size();
    }

    @Override
    public long[] remaining(Catalogue catalogue) throws SQLException {
        SqlStatements sql = SqlStatements.load("stockguard", dialect());
        Map<String, Long> bySku = new HashMap<>();
        try (Connection connection = connect(); Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery(sql.get("remaining"))) {
            while (rs.next()) {
                bySku.put(rs.getString(1), rs.getLong(2));
            }
        }
        long[] remaining = new long[catalogue.size()];
        for (int i = 0; i < remaining.length; i++) {
            remaining[i] = bySku.getOrDefault(catalogue.skus().get(i), 0L);
        }
        return remaining;
    }

    /** The running service's meters, for reports that look inside a run. */
    public io.micrometer.core.instrument.MeterRegistry meters() {
        return service.getBean(io.micrometer.core.instrument.MeterRegistry.class);
    }

    private long batchesBefore;
    private double batchedBefore;

    @Override
    public String notes() {
        List<String> notes = new ArrayList<>();
        var summary = meters().find("stockguard.coalescing.batch.size").summary();
        if (summary != null) {
            long batches = summary.count() - batchesBefore;
            double batched = summary.totalAmount() - batchedBefore;
            batchesBefore = summary.count();
            batchedBefore = summary.totalAmount();
            if (batches > 0) {
                notes.add(String.format(java.util.Locale.ROOT, "%d batches, %.1f reservations each", batches,
                        batched / batches));
            }
        }
        notes.add(acknowledgementNote());
        if (transport == Transport.LEAN_HTTP) {
            notes.add(connections.sum() + " HTTP connections opened");
        }
        return String.join(", ", notes);
    }

    /** Whether every reservation the last run acknowledged is held where it must survive a crash. */
    protected String acknowledgementNote() {
        try {
            long missing = acknowledgedMissingFromDatabase();
            return missing == 0 ? acknowledgedCount() + " acknowledged, all held in the database"
                    : missing + " of " + acknowledgedCount() + " acknowledged MISSING from the database";
        } catch (SQLException e) {
            return "acknowledged reservations not checked: " + e.getMessage();
        }
    }

    private int port() {
        return ((WebServerApplicationContext) service).getWebServer().getPort();
    }

    protected SqlDialect dialect() {
        return database.kind() == TestDatabase.Kind.POSTGRESQL ? SqlDialect.POSTGRESQL : SqlDialect.MYSQL;
    }

    protected Connection connect() throws SQLException {
        return DriverManager.getConnection(database.jdbcUrl(), database.username(), database.password());
    }

    /** Whether {@link #close} has begun: what it closes must not be started again. */
    protected boolean isClosed() {
        return closed;
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException(name + " is closed");
        }
    }

    /** Stops the service; safe to call again, and from another thread while a run uses it (which then fails). */
    @Override
    public void close() {
        closed = true;
        synchronized (lifecycle) {
            if (service != null) {
                service.close();
                service = null;
            }
        }
    }
}
