package io.stockguard.chaos.demo;

import io.stockguard.chaos.workload.Api;
import io.stockguard.chaos.workload.Target;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Verifies the post-mortem's worst incident the way an operator would see it: after a Redis
 * failover that lost acknowledged writes, the service must notice (the lost writes are a
 * regression: SKUs are taken from the hot store, counted by {@code stockguard_hot_takeovers_total})
 * and heal by itself (the SKUs are reloaded from the database, which has every acknowledged
 * change: {@code stockguard_hot_loads_total}) under a new epoch, so the promoted replica's stale
 * copy never sells. Which request notices first depends on the timing: one that meets the dead
 * master takes its SKUs over as unavailable, one that meets the stale replica as a regression (then
 * a FREEZE-level {@code drift-regression} alert reaches the demo's webhook, counted in the verdict
 * but not required). That no acknowledged order was lost is the checker's no-lost-ack rule.
 */
final class FailoverWatch {

    static final String INCIDENT = "failover, writes lost";
    private static final String TAKEOVERS = "stockguard_hot_takeovers_total";
    private static final String LOADS = "stockguard_hot_loads_total";
    private static final Duration WAIT_MAX = Duration.ofSeconds(60);
    private static final Duration POLL = Duration.ofMillis(500);

    private final Api api;
    private final List<Target> instances;
    private final Verdicts verdicts;
    private final AlertReceiver alerts;
    private double takeoversBefore;
    private long regressionAlertsBefore;
    private double loadsBefore;

    FailoverWatch(Api api, List<Target> instances, Verdicts verdicts, AlertReceiver alerts) {
        this.alerts = alerts;
        this.api = api;
        this.instances = instances;
        this.verdicts = verdicts;
    }

    /** Notes the counters before the failover. */
    void before() {
        takeoversBefore = Scrape.sum(api, instances, TAKEOVERS).orElse(0);
        loadsBefore = Scrape.sum(api, instances, LOADS).orElse(0);
        regressionAlertsBefore = regressionAlerts();
    }

    private long regressionAlerts() {
        return alerts.received().stream().filter(body -> body.contains("\"kind\":\"drift-regression\"")).count();
    }

    /** Waits (bounded) for the take-overs and the reloads after them, then records the verdict. */
    void verify() {
        long started = System.nanoTime();
        long deadline = started + WAIT_MAX.toNanos();
        double takeovers = 0;
        double loads = 0;
        long told = 0;
        while (System.nanoTime() < deadline) {
            takeovers = Scrape.sum(api, instances, TAKEOVERS).orElse(takeoversBefore) - takeoversBefore;
            loads = Scrape.sum(api, instances, LOADS).orElse(loadsBefore) - loadsBefore;
            told = regressionAlerts() - regressionAlertsBefore;
            if (takeovers > 0 && loads >= takeovers) {
                break;
            }
            LockSupport.parkNanos(POLL.toNanos());
        }
        long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
        if (takeovers <= 0) {
            verdicts.record(INCIDENT, false, "no SKU was taken from the hot store within " + WAIT_MAX.toSeconds()
                    + " s: the lost writes went unnoticed");
        } else if (loads < takeovers) {
            verdicts.record(INCIDENT, false, String.format("%.0f SKUs taken from the hot store, only %.0f reloaded "
                    + "within %d s", takeovers, loads, WAIT_MAX.toSeconds()));
        } else {
            verdicts.record(INCIDENT, true, String.format("the failover was noticed: %.0f SKUs taken from the hot "
                    + "store and sold by the database, %.0f reloaded from it under a new epoch (%d s after the heal); "
                    + "%d regression alerts", takeovers, loads, seconds, told));
        }
    }
}
