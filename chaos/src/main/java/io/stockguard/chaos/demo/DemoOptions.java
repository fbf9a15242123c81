package io.stockguard.chaos.demo;

import io.stockguard.chaos.Usage;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The demo's command line.
 *
 * @param length how long the load runs, about
 * @param clients order-service threads
 * @param noBrowser do not open the console in a browser
 */
record DemoOptions(Duration length, int clients, boolean noBrowser, long seed, Path jar, Path output) {

    /** How to call it; the launcher prints the same file for --help without a build. */
    static final String USAGE = Usage.read(DemoOptions.class);

    static DemoOptions parse(String... arguments) {
        int minutes = 10;
        int clients = 12;
        boolean noBrowser = false;
        long seed = 1;
        Path jar = Path.of("service", "target", "stockguard-exec.jar");
        Path output = Path.of("demo-results");
        for (String argument : arguments) {
            String name = argument.contains("=") ? argument.substring(0, argument.indexOf('=')) : argument;
            String value = argument.contains("=") ? argument.substring(argument.indexOf('=') + 1) : "";
            switch (name) {
                case "--minutes" -> minutes = number(name, value, 2, 60);
                case "--clients" -> clients = number(name, value, 1, 64);
                case "--no-browser" -> noBrowser = true;
                case "--seed" -> seed = number(name, value, 0, Integer.MAX_VALUE);
                case "--jar" -> jar = Path.of(value);
                case "--out" -> output = Path.of(value);
                default -> throw new IllegalArgumentException("demo: unknown option " + argument + "\n" + USAGE);
            }
        }
        return new DemoOptions(Duration.ofMinutes(minutes), clients, noBrowser, seed, jar, output);
    }

    private static int number(String name, String value, int min, int max) {
        try {
            int number = Integer.parseInt(value);
            if (number >= min && number <= max) {
                return number;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("demo: " + name + " must be a whole number from " + min + " to " + max
                + ", not '" + value + "'\n" + USAGE);
    }
}
