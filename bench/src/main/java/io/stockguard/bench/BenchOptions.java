package io.stockguard.bench;

import io.stockguard.bench.stockguard.Transport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What to run. Three sizes: the post-mortem's full-size scenarios (default), {@code --quick} (smaller, 8 and
 * 64 clients) and {@code --smoke} (tiny, for CI, so the harness cannot rot).
 */
record BenchOptions(String size, List<Scenario> scenarios, List<Integer> hotSkuClients, int otherClients,
        List<String> contenderFilters, Duration timeLimit, Duration warmUp, int repeat, Path output, Transport http,
        boolean profile, Network network) {

    /** How to call it: {@code usage.txt} beside this class, which the launcher prints for --help without a build. */
    static final String USAGE = usage();

    private static String usage() {
        try (var text = BenchOptions.class.getResourceAsStream("usage.txt")) {
            return new String(Objects.requireNonNull(text, "usage.txt").readAllBytes(),
                    StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static BenchOptions parse(String... args) {
        String size = "full";
        List<String> scenarioNames = List.of("hot-sku", "catalogue", "mixed-reads", "sku-reads");
        List<String> contenders = List.of();
        List<Integer> clients = null;
        Duration timeLimit = null;
        Integer repeat = null;
        Path output = Path.of("bench-results");
        Transport http = Transport.LEAN_HTTP;
        boolean profile = false;
        Network network = Network.LOCAL;
        for (String arg : args) {
            String value = arg.contains("=") ? arg.substring(arg.indexOf('=') + 1) : "";
            switch (arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg) {
                case "--quick" -> size = "quick";
                case "--smoke" -> size = "smoke";
                case "--scenario" -> scenarioNames = list(value);
                case "--contender" -> contenders = list(value);
                case "--clients" -> clients = list(value).stream().map(Integer::parseInt).toList();
                case "--time-limit" -> timeLimit = parseDuration(value);
                case "--out" -> output = Path.of(value);
                case "--repeat" -> repeat = Integer.parseInt(value);
                case "--http-client" -> http = Transport.http(value);
                case "--profile" -> profile = true;
                case "--network" -> network = Network.named(value);
                default -> throw new IllegalArgumentException("unknown option " + arg + "\n" + USAGE);
            }
        }
        List<Scenario> scenarios = new ArrayList<>();
        for (String name : scenarioNames) {
            scenarios.add(scenario(name, size));
        }
        List<Integer> hotClients = clients != null ? clients : switch (size) {
            case "smoke" -> List.of(4);
            case "quick" -> List.of(8, 64);
            default -> List.of(1, 8, 64, 256);
        };
        if (hotClients.stream().anyMatch(c -> c < 1 || c > 1024)) {
            throw new IllegalArgumentException("--clients must be between 1 and 1024");
        }
        Duration limit = timeLimit != null ? timeLimit : switch (size) {
            case "smoke" -> Duration.ofSeconds(5);
            case "quick" -> Duration.ofSeconds(4);
            default -> Duration.ofSeconds(30);
        };
        int otherClients = size.equals("smoke") ? 4 : 64;
        Duration warmUp = switch (size) {
            case "smoke" -> Duration.ZERO;
            case "quick" -> Duration.ofSeconds(1);
            default -> Duration.ofSeconds(5);
        };
        int repeats = repeat != null ? repeat : size.equals("full") ? 3 : 1;
        if (repeats < 1 || repeats > 20) {
            throw new IllegalArgumentException("--repeat must be between 1 and 20");
        }
        return new BenchOptions(size, scenarios, hotClients, otherClients, contenders, limit, warmUp, repeats, output,
                http, profile, network);
    }

    private static Scenario scenario(String name, String size) {
        return switch (name) {
            case "hot-sku" -> switch (size) {
                case "smoke" -> Scenario.hotSku(200, 1_000);
                case "quick" -> Scenario.hotSku(8_000, 40_000);
                default -> Scenario.hotSku(8_000, 126_000);
            };
            case "catalogue" -> switch (size) {
                case "smoke" -> Scenario.catalogue(100, 5, 1_000);
                case "quick" -> Scenario.catalogue(10_000, 20, 40_000);
                default -> Scenario.catalogue(100_000, 20, 200_000);
            };
            case "mixed-reads" -> switch (size) {
                case "smoke" -> Scenario.mixedReads(200, 300);
                case "quick" -> Scenario.mixedReads(8_000, 12_000);
                default -> Scenario.mixedReads(8_000, 40_000);
            };
            // Queries are cheaper than reservations: more of them, so a run lasts about as long.
            case "sku-reads" -> switch (size) {
                case "smoke" -> Scenario.skuReads(200, 500);
                case "quick" -> Scenario.skuReads(8_000, 100_000);
                default -> Scenario.skuReads(8_000, 400_000);
            };
            default -> throw new IllegalArgumentException("unknown scenario " + name + "\n" + USAGE);
        };
    }

    boolean selects(Contender contender) {
        // "name$" selects exactly that contender (as "stockguard-db$" leaves out stockguard-db-single).
        return contenderFilters.isEmpty() || contenderFilters.stream().anyMatch(filter -> filter.endsWith("$")
                ? contender.name().equals(filter.substring(0, filter.length() - 1))
                : contender.name().startsWith(filter));
    }

    private static List<String> list(String value) {
        return Arrays.stream(value.split(",")).map(String::strip).filter(v -> !v.isEmpty()).toList();
    }

    private static Duration parseDuration(String value) {
        if (value.endsWith("ms")) {
            return Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2)));
        }
        if (value.endsWith("s")) {
            return Duration.ofSeconds(Long.parseLong(value.substring(0, value.length() - 1)));
        }
        if (value.endsWith("m")) {
            return Duration.ofMinutes(Long.parseLong(value.substring(0, value.length() - 1)));
        }
        throw new IllegalArgumentException("--time-limit takes a duration like 30s or 2m, not " + value);
    }
}
