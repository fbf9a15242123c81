package io.stockguard.chaos.demo;

import io.stockguard.chaos.history.History;
import io.stockguard.chaos.history.Op;
import io.stockguard.chaos.workload.Api;
import io.stockguard.chaos.workload.Target;
import io.stockguard.chaos.workload.Traffic;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The line the terminal shows every few seconds while the load runs: requests answered per second
 * and their p99 over the last interval, reservations sold and refused so far, the hot SKU's stock,
 * mode and newest drift reading, and the journal's backlog, as the service reports them.
 */
final class LiveLine implements AutoCloseable {

    private static final long EVERY_SECONDS = 5;

    private final History history;
    private final Api api;
    private final Target instance;
    private final String hotSku;
    private final java.util.function.Supplier<Traffic.Phase> phase;
    private Traffic.Phase shown;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "demo-live-line");
        thread.setDaemon(true);
        return thread;
    });
    private int seen;

    LiveLine(History history, Api api, Target instance, String hotSku, java.util.function.Supplier<Traffic.Phase> phase) {
        this.phase = phase;
        this.history = history;
        this.api = api;
        this.instance = instance;
        this.hotSku = hotSku;
    }

    void start() {
        timer.scheduleAtFixedRate(this::announce, 0, 1, TimeUnit.SECONDS);
        timer.scheduleAtFixedRate(this::print, EVERY_SECONDS, EVERY_SECONDS, TimeUnit.SECONDS);
    }

    /** Tells the person watching when the traffic changes shape, within a second of it. */
    private void announce() {
        Traffic.Phase now = phase.get();
        if (now != shown) {
            shown = now;
            System.out.printf("%n== %s: %s%n", now.name(), PeakTraffic.describe(now));
        }
    }

    private void print() {
        try {
            System.out.println(line());
        } catch (RuntimeException e) {
            System.out.println("  [live] " + e);
        }
    }

    String line() {
        List<Op> ops = history.ops();
        Map<String, Op> open = new HashMap<>();
        List<Long> latencies = new ArrayList<>();
        long sold = 0;
        long refused = 0;
        for (int i = 0; i < ops.size(); i++) {
            Op op = ops.get(i);
            if (!op.isClient()) {
                continue;
            }
            if (op.isInvoke()) {
                open.put(op.process(), op);
                continue;
            }
            Op invoke = open.remove(op.process());
            if (invoke != null && i >= seen) {
                latencies.add(op.atMillis() - invoke.atMillis());
            }
            if (op.f().equals("reserve")) {
                if (op.type() == Op.Type.OK) {
                    sold++;
                } else if (op.type() == Op.Type.FAIL) {
                    refused++;
                }
            }
        }
        seen = ops.size();
        latencies.sort(null);
        long p99 = latencies.isEmpty() ? 0 : latencies.get((int) Math.min(latencies.size() - 1,
                Math.ceil(latencies.size() * 0.99) - 1));
        Api.Answer hot = api.call(instance.baseUrl(), "GET", "/api/v1/skus/" + hotSku, null, false);
        String stock = hot.ok() ? hotSku + " " + hot.number("available") + " left, " + hot.number("sold") + " sold, "
                + hot.text("mode") : hotSku + " unreadable (" + hot.status() + ")";
        return String.format("  [live] %-15s %5.0f req/s  p99 %4d ms | reservations %d ok, %d refused | %s | drift %s | "
                + "journal backlog %s", shown == null ? "" : shown.name(), latencies.size() / (double) EVERY_SECONDS, p99, sold, refused, stock, drift(),
                backlog());
    }

    /** The hot SKU's newest drift reading, in units, with its level. */
    private String drift() {
        Api.Answer readings = api.call(instance.baseUrl(), "GET", "/api/v1/admin/skus/" + hotSku + "/drift?limit=1",
                null, true);
        if (!readings.ok() || readings.body() == null || readings.body().isEmpty()) {
            return "not measured yet";
        }
        var newest = readings.body().get(0);
        return newest.get("driftUnits").asLong() + " units " + newest.get("level").asString();
    }

    /** Events Kafka holds that the database has not applied, as the instance reports it. */
    private String backlog() {
        OptionalDouble events = Scrape.sum(api, List.of(instance), "stockguard_journal_backlog");
        return events.isPresent() ? String.format("%.0f", events.getAsDouble()) : "?";
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
