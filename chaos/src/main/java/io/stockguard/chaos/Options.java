package io.stockguard.chaos;

import io.stockguard.chaos.cluster.Deployment;
import io.stockguard.chaos.cluster.RedisSetup;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The command line of {@code ./stockguard chaos}: which tiers, which faults, which seeds, how long.
 *
 * @param faults null = every fault the tier has (the quick profile: its own short list); empty =
 *     a run without faults
 */
public record Options(Profile profile, List<Tier> tiers, List<String> faults, List<Long> seeds, int clients,
        Duration faultFreeLoad, Duration soak, Path jar, Path output, int instances, List<Integer> waitReplicas,
        RedisSetup redis) {

    public enum Profile { QUICK, DEFAULT, SOAK }

    /** How to call it; the launcher prints the same file for --help without a build. */
    static final String USAGE = Usage.read(Options.class);

    static Options parse(String... arguments) {
        Profile profile = Profile.DEFAULT;
        List<Tier> tiers = List.of(Tier.values());
        List<String> faults = null;
        long seed = 1;
        Integer seeds = null;
        Integer clients = null;
        Duration faultFree = Duration.ofSeconds(30);
        Duration soak = Duration.ofMinutes(10);
        Path jar = Path.of("service", "target", "stockguard-exec.jar");
        Path output = Path.of("chaos-results");
        int instances = Deployment.INSTANCES_DEFAULT;
        List<Integer> waitReplicas = List.of(0, 1);
        RedisSetup redis = RedisSetup.PROXIED;
        for (String argument : arguments) {
            String value = argument.contains("=") ? argument.substring(argument.indexOf('=') + 1) : "";
            switch (argument.contains("=") ? argument.substring(0, argument.indexOf('=')) : argument) {
                case "--quick" -> profile = Profile.QUICK;
                case "--soak" -> profile = Profile.SOAK;
                case "--minutes" -> soak = Duration.ofMinutes(positive(argument, value));
                case "--tier" -> tiers = Arrays.stream(value.split(",")).map(Tier::parse).toList();
                case "--faults" -> faults = value.equals("none") ? List.of() : List.of(value.split(","));
                case "--seed" -> seed = Long.parseLong(value);
                case "--seeds" -> seeds = positive(argument, value);
                case "--clients" -> clients = positive(argument, value);
                case "--seconds" -> faultFree = Duration.ofSeconds(positive(argument, value));
                case "--jar" -> jar = Path.of(value);
                case "--out" -> output = Path.of(value);
                case "--sentinel" -> redis = only(redis, RedisSetup.SENTINEL);
                case "--redis-cluster" -> redis = only(redis, RedisSetup.CLUSTER);
                case "--instances" -> instances = within(argument, value, 1, Deployment.INSTANCES_MAX);
                case "--wait-replicas" -> waitReplicas = Arrays.stream(value.split(","))
                        .map(v -> within(argument, v.strip(), 0, 1)).distinct().toList();
                default -> throw new IllegalArgumentException("unknown option " + argument + "\n\n" + USAGE);
            }
        }
        List<Long> seedList = new ArrayList<>();
        int count = seeds != null ? seeds : profile == Profile.DEFAULT ? 3 : 1;
        for (int i = 0; i < count; i++) {
            seedList.add(seed + i);
        }
        int clientCount = clients != null ? clients : profile == Profile.QUICK ? 16 : 24;
        return new Options(profile, tiers, faults, List.copyOf(seedList), clientCount, faultFree, soak, jar, output,
                instances, redis == RedisSetup.CLUSTER ? clusterWaits(waitReplicas) : waitReplicas, redis);
    }

    private static RedisSetup only(RedisSetup before, RedisSetup asked) {
        if (before != RedisSetup.PROXIED && before != asked) {
            throw new IllegalArgumentException("--sentinel and --redis-cluster: one at a time\n\n" + USAGE);
        }
        return asked;
    }

    /** Redis Cluster runs with wait-replicas 0 alone (WAIT is not available there). */
    private static List<Integer> clusterWaits(List<Integer> asked) {
        if (!asked.contains(0)) {
            throw new IllegalArgumentException("--redis-cluster runs with --wait-replicas=0 only: WAIT is not "
                    + "available in Redis Cluster\n\n" + USAGE);
        }
        return List.of(0);
    }

    /** The deployments a tier runs in: one per wait-replicas asked for on a Redis tier, the one on the embedded tier. */
    public List<Deployment> deployments(Tier tier) {
        if (!tier.hasRedis()) {
            return List.of(Deployment.EMBEDDED);
        }
        return waitReplicas.stream().map(wait -> new Deployment(instances, wait, redis)).toList();
    }

    private static int within(String argument, String value, int min, int max) {
        try {
            int parsed = Integer.parseInt(value);
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(argument + ": a whole number from " + min + " to " + max + " is needed\n\n"
                + USAGE);
    }

    private static int positive(String argument, String value) {
        try {
            int parsed = Integer.parseInt(value);
            if (parsed > 0) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(argument + ": a positive whole number is needed\n\n" + USAGE);
    }

    /** Three brokers (replication factor 3, min in-sync 2) except in the quick profile. */
    public int kafkaBrokers() {
        return profile == Profile.QUICK ? 1 : 3;
    }
}
