package io.stockguard.chaos.demo;

import io.stockguard.chaos.Tier;
import io.stockguard.chaos.cluster.Cluster;
import io.stockguard.chaos.nemesis.Fault;
import io.stockguard.chaos.workload.Api;
import io.stockguard.chaos.workload.Target;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * The post-mortem's script bug: the hot SKU's available stock in Redis raised by 4.2 % behind the
 * journal's back. The probe must find the exact drift within its cadence and freeze the SKU; the
 * heal (the person's answer, here the demo's) drains the journal and rebases Redis from the
 * database. Whether the probe froze the SKU before the heal is the incident's verdict.
 */
final class Inflation implements Fault {

    /** The share of the available stock the bug added: the post-mortem's figure. */
    private static final double SHARE = 0.042;
    private static final Duration FREEZE_WAIT_MAX = Duration.ofSeconds(30);

    private final String sku;
    private final int buckets;
    private final Api api;
    private final Supplier<Target> instance;
    private final Verdicts verdicts;

    /** @param instance the instance to heal through, once the cluster is up */
    Inflation(String sku, int buckets, Api api, Supplier<Target> instance, Verdicts verdicts) {
        this.sku = sku;
        this.buckets = buckets;
        this.api = api;
        this.instance = instance;
        this.verdicts = verdicts;
    }

    @Override
    public String name() {
        return "inflation";
    }

    @Override
    public String description() {
        return "the post-mortem's script bug: " + sku + "'s available stock in Redis raised by 4.2 % behind the "
                + "journal's back";
    }

    @Override
    public Set<Tier> tiers() {
        return Set.of(Tier.REDIS, Tier.KAFKA);
    }

    @Override
    public Duration hold() {
        return Duration.ofSeconds(12);
    }

    @Override
    public Injected inject(Cluster cluster, Random random) {
        var redis = cluster.redis().orElseThrow(() -> new IllegalStateException("the tier has no Redis"));
        String key = "sg:{" + sku + "}:b";
        long available = 0;
        for (int bucket = 0; bucket < buckets; bucket++) {
            String value = redis.command("HGET", key, bucket + ":a");
            available += value.startsWith("$-1") ? 0 : Long.parseLong(value);
        }
        long added = Math.max(1, Math.round(available * SHARE));
        String reply = redis.command("HINCRBY", key, "0:a", Long.toString(added));
        if (!reply.startsWith(":")) {
            throw new IllegalStateException("HINCRBY " + key + " answered " + reply);
        }
        String detail = added + " units added to bucket 0 of " + sku + " in Redis (" + available + " available)";
        return new Injected() {
            @Override
            public String detail() {
                return detail;
            }

            @Override
            public void heal() {
                boolean frozen = awaitFrozen();
                verdicts.record("inflation", frozen, frozen
                        ? "the probe froze " + sku + " on its exact drift; healed (drained, rebased, unfrozen)"
                        : sku + " was not frozen within " + FREEZE_WAIT_MAX.toSeconds() + " s of the inflation");
                Api.Answer healed = api.call(instance.get().baseUrl(), "POST", "/api/v1/admin/skus/" + sku + "/heal",
                        Map.of("reason", "demo: the 4.2 % inflation", "unfreeze", true), true);
                if (healed.status() != 200) {
                    throw new IllegalStateException("heal answered " + healed.status() + " " + healed.body());
                }
            }
        };
    }

    /** Whether the SKU is frozen now or becomes so within the bound (the probe's cadence and more). */
    private boolean awaitFrozen() {
        long deadline = System.nanoTime() + FREEZE_WAIT_MAX.toNanos();
        while (System.nanoTime() < deadline) {
            Api.Answer stock = api.call(instance.get().baseUrl(), "GET", "/api/v1/skus/" + sku, null, false);
            if (stock.ok() && "FROZEN".equals(stock.text("mode"))) {
                return true;
            }
            LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
        }
        return false;
    }
}
