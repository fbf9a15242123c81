package io.stockguard.chaos.workload;

import io.stockguard.chaos.history.History;
import io.stockguard.chaos.history.Op;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * After every fault healed and the load stopped: waits until the journal has reached the
 * database (the probe sees nothing in flight), then reads back every order and SKU, the probe's
 * drift, both stores' buckets and each instance's fallback counters, into the history under the
 * process {@code final}.
 */
public final class FinalReads {

    private static final String PROCESS = "final";
    private static final Duration DRAIN_WAIT_MAX = Duration.ofSeconds(90);
    private static final int READERS = 8;
    private static final Pattern FALLBACKS = Pattern.compile(
            "^stockguard_ledger_path_total\\{[^}]*path=\"database\"[^}]*} ([0-9.eE+]+)$", Pattern.MULTILINE);
    private static final Pattern TAKEOVERS = Pattern.compile("^stockguard_hot_takeovers_total(?:\\{[^}]*})? ([0-9.eE+]+)$",
            Pattern.MULTILINE);

    private final List<Target> instances;
    private final Api api;
    private final History history;
    private final Catalogue catalogue;
    private final boolean hotStore;
    private final java.nio.file.Path journalFolder;

    public FinalReads(List<Target> instances, Api api, History history, Catalogue catalogue, boolean hotStore,
            java.nio.file.Path journalFolder) {
        this.journalFolder = journalFolder;
        this.instances = instances;
        this.api = api;
        this.history = history;
        this.catalogue = catalogue;
        this.hotStore = hotStore;
    }

    /**
     * Waits until nothing is in flight between the stores for any SKU, bounded: the probe sees no
     * journaled change still to apply, the hot store's outbox is empty (changes left by requests
     * that died are swept after the sweep's minimum age), and both stores hold the same counters
     * (a confirm moves no available stock, so the probe alone would not see one still in Kafka).
     * Returns how long that took, or empty when it did not happen in time; the reads are made anyway
     * and the checker reports whatever still differs.
     */
    public java.util.Optional<Duration> awaitDrained(Connection database) {
        long start = System.nanoTime();
        long deadline = start + DRAIN_WAIT_MAX.toNanos();
        Set<String> waiting = new LinkedHashSet<>(catalogue.all());
        while (!waiting.isEmpty() && System.nanoTime() < deadline) {
            waiting.removeIf(sku -> drained(sku, database));
            if (!waiting.isEmpty()) {
                LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
            }
        }
        return waiting.isEmpty() ? java.util.Optional.of(Duration.ofNanos(System.nanoTime() - start))
                : java.util.Optional.empty();
    }

    private boolean drained(String sku, Connection database) {
        Api.Answer probe = answered(instances.getFirst(), "POST", "/api/v1/admin/skus/" + sku + "/probe");
        if (!probe.ok() || probe.number("inFlight") != 0) {
            return false;
        }
        if (!hotStore) {
            return true;
        }
        Api.Answer hot = answered(instances.getFirst(), "GET", "/api/v1/admin/skus/" + sku + "/hot");
        if (hot.status() == 404) {
            return true;
        }
        if (!hot.ok() || hot.number("outboxLength") != 0) {
            return false;
        }
        Map<String, Long> numbers = new LinkedHashMap<>();
        hot.body().get("buckets").forEach(bucket -> {
            String prefix = Op.Final.HOT_PREFIX + bucket.get("bucket").asInt() + ".";
            numbers.put(prefix + "available", bucket.get("available").asLong());
            numbers.put(prefix + "reserved", bucket.get("reserved").asLong());
            numbers.put(prefix + "sold", bucket.get("sold").asLong());
        });
        try {
            numbers.putAll(databaseBuckets(sku, database));
        } catch (SQLException e) {
            return false;
        }
        return !differs(numbers);
    }

    /** Reads every order the history names, every SKU, the probe, buckets and metrics. */
    public void read(Connection database) {
        Set<String> orders = new LinkedHashSet<>();
        history.ops().forEach(op -> {
            if (op.orderId() != null) {
                orders.add(op.orderId());
            }
        });
        // Several readers, each its own process in the history (a process has one operation open at a time).
        List<String> all = List.copyOf(orders);
        try (ExecutorService readers = Executors.newFixedThreadPool(READERS)) {
            for (int reader = 0; reader < READERS; reader++) {
                String process = PROCESS + "-" + reader;
                int first = reader;
                readers.submit(() -> {
                    for (int i = first; i < all.size(); i += READERS) {
                        record(process, "read-order", all.get(i), null, "GET", "/api/v1/reservations/" + all.get(i));
                    }
                });
            }
        }
        for (String sku : catalogue.all()) {
            record(PROCESS, "read-sku", null, sku, "GET", "/api/v1/skus/" + sku);
            probe(sku);
            buckets(sku, database);
        }
        metrics(PROCESS);
    }

    /** Each instance's fallback and takeover counters, recorded under {@code process}. */
    public void metrics(String process) {
        for (Target instance : instances) {
            metrics(process, instance);
        }
    }

    private void record(String process, String f, String order, String sku, String method, String path) {
        Target target = instances.getFirst();
        Op invoked = history.invoke(new Op(0, process, Op.Type.INVOKE, f, 0, target.name(), order, null, null, null,
                sku, null, null, null, null, null, null, null, null, null));
        Api.Answer answer = answered(target, method, path);
        history.complete(invoked, Answers.type(answer), op -> Answers.describe(op, answer));
    }

    /** Asks each instance in turn until one answers (a final read must not be lost to one instance). */
    private Api.Answer answered(Target first, String method, String path) {
        Api.Answer answer = api.call(first.baseUrl(), method, path, null, true);
        for (int i = 1; i < instances.size() && Answers.retryable(answer); i++) {
            answer = api.call(instances.get(i).baseUrl(), method, path, null, true);
        }
        return answer;
    }

    private void probe(String sku) {
        Target target = instances.getFirst();
        Op invoked = history.invoke(new Op(0, PROCESS, Op.Type.INVOKE, "probe", 0, target.name(), null, null, null,
                null, sku, null, null, null, null, null, null, null, null, null));
        Api.Answer answer = api.call(target.baseUrl(), "POST", "/api/v1/admin/skus/" + sku + "/probe", null, true);
        Map<String, Long> numbers = new LinkedHashMap<>();
        if (answer.ok()) {
            String kind = answer.text("kind");
            numbers.put(Op.Final.DRIFT_UNITS, answer.number("driftUnits"));
            numbers.put(Op.Final.REGRESSION, "REGRESSION".equals(kind) ? 1L : 0L);
            numbers.put(Op.Final.UNMEASURED, kind != null && kind.startsWith("NOT") ? 1L : 0L);
        }
        String detail = answer.ok() ? answer.text("kind") + " " + answer.text("level") + ": " + answer.text("detail")
                : answer.error();
        history.complete(invoked, Answers.type(answer), op -> op.withAnswer(answer.status(), answer.code(), null, null,
                null, null, numbers, detail));
    }

    private void buckets(String sku, Connection database) {
        Target target = instances.getFirst();
        Op invoked = history.invoke(new Op(0, PROCESS, Op.Type.INVOKE, "buckets", 0, target.name(), null, null, null,
                null, sku, null, null, null, null, null, null, null, null, null));
        Map<String, Long> numbers = new LinkedHashMap<>();
        String failure = null;
        try {
            numbers.putAll(databaseBuckets(sku, database));
        } catch (SQLException e) {
            failure = "database: " + e.getMessage();
        }
        if (hotStore) {
            Api.Answer hot = api.call(target.baseUrl(), "GET", "/api/v1/admin/skus/" + sku + "/hot", null, true);
            if (hot.ok() && hot.body().get("buckets") != null) {
                for (JsonNode bucket : hot.body().get("buckets")) {
                    String prefix = Op.Final.HOT_PREFIX + bucket.get("bucket").asInt() + ".";
                    numbers.put(prefix + "available", bucket.get("available").asLong());
                    numbers.put(prefix + "reserved", bucket.get("reserved").asLong());
                    numbers.put(prefix + "sold", bucket.get("sold").asLong());
                }
            } else if (hot.status() != 404) {
                failure = "hot store: " + hot.status() + " " + hot.error();
            }
        }
        Op.Type type = failure == null ? Op.Type.OK : Op.Type.INFO;
        String detail = failure;
        history.complete(invoked, type, op -> op.withAnswer(failure(detail), null, null, null, null, null, numbers,
                detail));
    }

    private static Map<String, Long> databaseBuckets(String sku, Connection database) throws SQLException {
        Map<String, Long> numbers = new LinkedHashMap<>();
        try (PreparedStatement select = database.prepareStatement(
                "SELECT bucket, available, reserved, sold FROM stock_bucket WHERE sku_id = ? ORDER BY bucket")) {
            select.setString(1, sku);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    String prefix = Op.Final.DB_PREFIX + rows.getInt(1) + ".";
                    numbers.put(prefix + "available", rows.getLong(2));
                    numbers.put(prefix + "reserved", rows.getLong(3));
                    numbers.put(prefix + "sold", rows.getLong(4));
                }
            }
        }
        return numbers;
    }

    /** Whether a bucket figure the hot store reports differs from the database's. */
    private static boolean differs(Map<String, Long> numbers) {
        return numbers.entrySet().stream().filter(e -> e.getKey().startsWith(Op.Final.HOT_PREFIX)).anyMatch(e ->
                !e.getValue().equals(numbers.get(Op.Final.DB_PREFIX + e.getKey().substring(Op.Final.HOT_PREFIX.length()))));
    }

    /** The tables a person reads to find what became of an order or a change, in the order they read them. */
    private static final List<String> DUMPED = List.of("sku", "stock_bucket", "reservation", "reservation_line",
            "stock_event", "pending_event", "anomaly", "dead_letter");
    /** Rows per table at most: a run makes some 10^5 events, and a dump must not fill the disk. */
    private static final int DUMP_ROWS_MAX = 1_000_000;

    /**
     * The database's ledger at the end, written beside the history ({@code db-<table>.tsv}): what a
     * person reads to find which change one store has and the other has not, after the database
     * itself is gone with the cluster.
     */
    public void dumpDatabase(Connection database) {
        if (journalFolder == null) {
            return;
        }
        for (String table : DUMPED) {
            try (PreparedStatement select = database.prepareStatement("SELECT * FROM " + table + " ORDER BY 1")) {
                select.setMaxRows(DUMP_ROWS_MAX);
                StringBuilder text = new StringBuilder();
                try (ResultSet rows = select.executeQuery()) {
                    int columns = rows.getMetaData().getColumnCount();
                    for (int c = 1; c <= columns; c++) {
                        text.append(rows.getMetaData().getColumnName(c)).append(c == columns ? '\n' : '\t');
                    }
                    while (rows.next()) {
                        for (int c = 1; c <= columns; c++) {
                            text.append(rows.getString(c)).append(c == columns ? '\n' : '\t');
                        }
                    }
                }
                java.nio.file.Files.writeString(journalFolder.resolve("db-" + table + ".tsv"), text);
            } catch (SQLException | java.io.IOException e) {
                System.err.println("chaos: could not dump table " + table + ": " + e);
            }
        }
    }

    private static Integer failure(String detail) {
        return detail == null ? 200 : 0;
    }

    private void metrics(String process, Target instance) {
        Op invoked = history.invoke(new Op(0, process, Op.Type.INVOKE, "metrics", 0, instance.name(), null, null, null,
                null, null, null, null, null, null, null, null, null, null, null));
        java.util.Optional<String> scrape = api.metrics(instance.baseUrl());
        Map<String, Long> numbers = new LinkedHashMap<>();
        scrape.ifPresent(text -> {
            numbers.put(Op.Final.DATABASE_FALLBACKS, sum(FALLBACKS, text));
            numbers.put(Op.Final.TAKEOVERS, sum(TAKEOVERS, text));
        });
        history.complete(invoked, scrape.isPresent() ? Op.Type.OK : Op.Type.INFO, op -> op.withAnswer(
                scrape.isPresent() ? 200 : 0, null, null, null, null, null, numbers, null));
    }

    private static long sum(Pattern metric, String text) {
        Matcher matcher = metric.matcher(text);
        double total = 0;
        while (matcher.find()) {
            total += Double.parseDouble(matcher.group(1));
        }
        return Math.round(total);
    }
}
