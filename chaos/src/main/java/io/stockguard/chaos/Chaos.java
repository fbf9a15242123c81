package io.stockguard.chaos;

import io.stockguard.chaos.cluster.Deployment;
import io.stockguard.chaos.run.Outcome;
import io.stockguard.chaos.run.Run;
import io.stockguard.chaos.run.Schedule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ./stockguard chaos}: runs the tiers under their faults, checks each history and prints a
 * verdict. Exit code 0 when every rule held (rules on the known-failures list excepted), 1 when
 * one did not, 2 for a bad command line.
 */
public final class Chaos {

    private Chaos() {
    }

    public static void main(String[] arguments) {
        if (List.of(arguments).contains("--help") || List.of(arguments).contains("-h")) {
            System.out.println(Options.USAGE);
            return;
        }
        Options options;
        try {
            options = Options.parse(arguments);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        if (!Files.isRegularFile(options.jar())) {
            System.err.println("chaos: no service jar at " + options.jar() + " (build it: ./mvnw -pl service package)");
            System.exit(2);
        }
        List<Outcome> outcomes = run(options);
        System.exit(outcomes.stream().allMatch(Outcome::passed) ? 0 : 1);
    }

    /**
     * Runs every tier, deployment and seed the options name, one after another; prints each verdict
     * as it comes.
     */
    public static List<Outcome> run(Options options) {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        List<Outcome> outcomes = new ArrayList<>();
        for (Tier tier : options.tiers()) {
            for (Deployment deployment : options.deployments(tier)) {
                for (long seed : options.seeds()) {
                    Schedule schedule = Schedule.of(options, tier, deployment, seed);
                    Path folder = options.output().resolve(stamp + "-" + tier.option() + "-"
                            + deployment.folderName() + "-seed" + seed);
                    System.out.printf("chaos: %s tier, %s, seed %d, faults %s, about %d s of load; results in %s%n",
                            tier.label(), deployment.label(), seed,
                            schedule.faults().stream().map(f -> f.name()).toList(),
                            schedule.loadDuration().toSeconds(), folder);
                    Run run = new Run(tier, deployment, seed, schedule, options.clients(), options.kafkaBrokers(),
                            options.jar(), folder);
                    Outcome outcome = Outcome.judge(run, schedule, run.execute());
                    System.out.println(outcome.text());
                    outcomes.add(outcome);
                }
            }
        }
        System.out.println(Outcome.summary(outcomes));
        return outcomes;
    }
}
