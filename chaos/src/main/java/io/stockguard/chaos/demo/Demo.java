package io.stockguard.chaos.demo;

import io.stockguard.chaos.Tier;
import io.stockguard.chaos.check.RuleResult;
import io.stockguard.chaos.cluster.Cluster;
import io.stockguard.chaos.cluster.Deployment;
import io.stockguard.chaos.history.History;
import io.stockguard.chaos.nemesis.Fault;
import io.stockguard.chaos.nemesis.Faults;
import io.stockguard.chaos.report.HtmlReport;
import io.stockguard.chaos.run.Outcome;
import io.stockguard.chaos.run.Run;
import io.stockguard.chaos.run.Schedule;
import io.stockguard.chaos.run.Stage;
import io.stockguard.chaos.workload.Api;
import io.stockguard.chaos.workload.Catalogue;
import io.stockguard.chaos.workload.Target;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;

/**
 * {@code ./stockguard demo}: a Singles' Day on one machine. The full tier (PostgreSQL, Redis master
 * and replica, three Kafka brokers, two StockGuard instances) under a peak-shaped load, with the
 * post-mortem's incidents played one after another, each announced with what should happen and
 * verified once it has; then the books, the checker's verdict on the whole history, and a report.
 * Exit code 0 only when every verdict passed.
 */
public final class Demo implements Stage {

    /**
     * Two instances behind the load, waiting for the replica (wait-replicas 1): the failover then
     * shows replica acknowledgement degrading and coming back as well as the history fence. The
     * default (0) is what the chaos suite runs first.
     */
    static final Deployment DEPLOYMENT = new Deployment(2, 1, io.stockguard.chaos.cluster.RedisSetup.PROXIED);
    private static final String ORDINARY_PREFIX = "SKU-";
    private static final int ORDINARY_SKUS = 1_000;
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration PREHEAT_WAIT_MAX = Duration.ofMinutes(2);
    /** Watchers finish within their own bounds; this only keeps a stuck one from holding the books. */
    private static final Duration WATCH_JOIN_MAX = Duration.ofMinutes(3);
    private static final int ALERTS_SHOWN = 5;
    private static final int ALERT_CHARS_SHOWN = 300;
    /** The backlog (events Kafka holds that the database has not applied) above which the demo's service degrades. */
    static final int BACKLOG_DEGRADE_ABOVE = 100;
    static final int BACKLOG_RECOVER_BELOW = 20;

    private final DemoOptions options;
    private final Catalogue catalogue = Catalogue.demo();
    private final Api api = new Api(REQUEST_TIMEOUT);
    private final Verdicts verdicts = new Verdicts();
    private final AlertReceiver alerts = AlertReceiver.start();
    private final String password = HexFormat.of().formatHex(new SecureRandom().generateSeed(9));
    private final PeakTraffic traffic;
    private final Schedule schedule;
    private List<Target> targets = List.of();
    private History history;
    private long loadStartedNanos;
    private long loadStartedMillis;
    private long loadEndedMillis;
    private volatile long pauseFromMillis = -1;
    private volatile long pauseUntilMillis = -1;
    private LiveLine live;
    private Thread scripted;
    private FailoverWatch failover;
    private Thread failoverVerdict;
    private BacklogWatch backlog;

    Demo(DemoOptions options) {
        this.options = options;
        this.traffic = new PeakTraffic(midnight(options.length()), options.clients());
        this.schedule = schedule();
    }

    /** Before midnight: a twentieth of the run, between the checker's warm-up and half a minute. */
    private static Duration midnight(Duration length) {
        return clamp(length.dividedBy(20), Schedule.WARM_UP, Duration.ofSeconds(30));
    }

    private static Duration clamp(Duration value, Duration min, Duration max) {
        return value.compareTo(min) < 0 ? min : value.compareTo(max) > 0 ? max : value;
    }

    public static void main(String[] arguments) {
        if (List.of(arguments).contains("--help") || List.of(arguments).contains("-h")) {
            System.out.println(DemoOptions.USAGE);
            return;
        }
        DemoOptions options;
        try {
            options = DemoOptions.parse(arguments);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        if (!Files.isRegularFile(options.jar())) {
            System.err.println("demo: no service jar at " + options.jar() + " (build it: ./mvnw -pl service package)");
            System.exit(2);
        }
        System.exit(new Demo(options).play().passed() ? 0 : 1);
    }

    /**
     * What a demo came to: the verdicts that failed, each in the line the books print for it, so a
     * caller that sees only the end of the output (a CI log) still learns what went wrong.
     */
    record Ending(List<String> failures) {

        Ending {
            failures = List.copyOf(failures);
        }

        boolean passed() {
            return failures.isEmpty();
        }
    }

    /** Plays the whole demo. */
    Ending play() {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Path folder = options.output().resolve(stamp);
        System.out.printf("demo: the full tier, %d client threads, about %d s of load, incidents %s; results in %s%n",
                options.clients(), schedule.loadDuration().toSeconds(),
                schedule.faults().stream().map(Fault::name).toList(), folder);
        Run run = new Run(Tier.KAFKA, DEPLOYMENT, options.seed(), schedule, options.clients(), 3, options.jar(), folder,
                this);
        Outcome outcome;
        try (alerts) {
            outcome = Outcome.judge(run, schedule, run.execute());
        } catch (RuntimeException e) {
            // A part that would not start, a port taken: said in one line, with where the logs are.
            String stopped = "demo: stopped: " + e.getMessage() + " (the logs of every process are in " + folder + ")";
            System.err.println(stopped);
            return new Ending(List.of(stopped));
        }
        return books(outcome, folder);
    }

    /**
     * The incidents of the post-mortem that are faults, one after another, with the quiet time after
     * each stretched so the whole load lasts about the minutes asked for. The first comes a while
     * after midnight, so the spike is seen clean (the checker holds that stretch to no fallback at
     * all). The inflation comes first, while the hot SKU has plenty left: inflated stock of a SKU
     * that sells out in the probe's cadence would be sold, which is the bug's harm, not the
     * probe's. The failover comes in the second wave, where the post-mortem had it.
     */
    private Schedule schedule() {
        List<Fault> faults = List.of(new Inflation(catalogue.hot(), catalogue.buckets().get(catalogue.hot()), api,
                () -> targets.getFirst(), verdicts), Faults.named("redis-failover-fast"),
                Faults.named("kafka-broker-kill"), Faults.named("postgres-pause"));
        Duration firstFault = traffic.midnight().plus(clamp(options.length().dividedBy(20), Duration.ofSeconds(6),
                Duration.ofSeconds(30)));
        Duration faultTime = faults.stream().map(Fault::hold).reduce(Duration.ZERO, Duration::plus);
        Duration left = options.length().minus(firstFault).minus(faultTime);
        Duration observe = left.dividedBy(faults.size());
        if (observe.compareTo(Schedule.OBSERVE_AFTER_HEAL) < 0) {
            observe = Schedule.OBSERVE_AFTER_HEAL;
        }
        return new Schedule(faults, firstFault, observe, Duration.ZERO);
    }

    @Override
    public io.stockguard.chaos.workload.Traffic traffic() {
        return traffic;
    }

    @Override
    public Map<String, String> settings() {
        String hash = "{bcrypt}" + new BCryptPasswordEncoder().encode(password);
        return Map.of("stockguard.security.people.users", "demo:ADMIN:" + hash,
                "stockguard.alerting.channels[0].name", "demo-receiver",
                "stockguard.alerting.channels[0].type", "WEBHOOK",
                "stockguard.alerting.channels[0].url", alerts.url(),
                // The probe looks at the hot SKU every few seconds, so an inflation is found in the demo's time.
                "stockguard.reconciliation.hot-interval", "5s",
                "stockguard.reconciliation.elevated-interval", "2s",
                "stockguard.reconciliation.watch-list", catalogue.hot(),
                // Low enough that the database pause builds a backlog past it in seconds, so the degrade is seen.
                "stockguard.kafka.backlog.degrade-above", Integer.toString(BACKLOG_DEGRADE_ABOVE),
                "stockguard.kafka.backlog.recover-below", Integer.toString(BACKLOG_RECOVER_BELOW));
    }

    @Override
    public Catalogue catalogue() {
        return catalogue;
    }

    @Override
    public void loadStarted(Cluster cluster, List<Target> targets, History history) {
        this.loadStartedNanos = System.nanoTime();
        this.targets = targets;
        this.history = history;
        this.loadStartedMillis = history.millis();
        this.failover = new FailoverWatch(api, targets, verdicts, alerts);
        this.backlog = new BacklogWatch(api, targets, verdicts);
        Target first = targets.getFirst();
        System.out.printf("%n  console   %s/console   login: demo / %s (this run only)%n", first.baseUrl(), password);
        System.out.printf("  API       %s/swagger-ui.html%n", first.baseUrl());
        System.out.printf("  catalogue %s (%d units in %d buckets, at most %d per customer), %d small SKUs and the "
                + "everyday %s (%d units)%n%n", catalogue.hot(), catalogue.totals().get(catalogue.hot()),
                catalogue.buckets().get(catalogue.hot()), Catalogue.HOT_LIMIT_PER_CUSTOMER, catalogue.small().size(),
                catalogue.everyday(), catalogue.totals().get(catalogue.everyday()));
        if (!options.noBrowser()) {
            Browser.open(first.baseUrl() + "/console");
        }
        live = new LiveLine(history, api, first, catalogue.hot(), () -> traffic.at(sinceLoadStarted()));
        live.start();
        scripted = Thread.ofPlatform().name("demo-scripted").start(() -> scriptedIncidents(first));
    }

    private Duration sinceLoadStarted() {
        return Duration.ofNanos(System.nanoTime() - loadStartedNanos);
    }

    @Override
    public void injecting(Fault fault) {
        System.out.printf("%n>> incident: %s%n   %s%n   expected: %s%n", fault.name(), fault.description(),
                expected(fault.name()));
        switch (fault.name()) {
            case "redis-failover-fast" -> failover.before();
            case "postgres-pause" -> {
                pauseFromMillis = history.millis();
                traffic.ordersGoOn(true);
                backlog.start();
            }
            default -> {
            }
        }
    }

    @Override
    public void healed(Fault fault, boolean injected) {
        System.out.printf(">> healed: %s%s%n", fault.name(), injected ? "" : " (its injection failed)");
        switch (fault.name()) {
            case "inflation" -> placeSecondWave();
            case "redis-failover-fast" -> failoverVerdict = Thread.ofPlatform().name("demo-failover-watch").daemon()
                    .start(failover::verify);
            case "postgres-pause" -> {
                traffic.ordersGoOn(false);
                pauseUntilMillis = history.millis();
                backlog.healed();
            }
            default -> {
            }
        }
    }

    /**
     * The second wave rises before the failover (the next fault, one quiet time from now) and lasts
     * as long again after it: the post-mortem's failover came under the second wave's queries.
     */
    private void placeSecondWave() {
        Duration lead = clamp(schedule.observeAfterHeal().dividedBy(2), Duration.ofSeconds(5), Duration.ofSeconds(30));
        Duration failoverAt = sinceLoadStarted().plus(schedule.observeAfterHeal());
        traffic.secondWave(failoverAt.minus(lead), failoverAt.plus(lead));
    }

    @Override
    public void loadEnded() {
        loadEndedMillis = history == null ? 0 : history.millis();
        if (live != null) {
            live.close();
        }
        try {
            if (scripted != null) {
                scripted.join(PREHEAT_WAIT_MAX.toMillis());
            }
            if (failoverVerdict != null) {
                failoverVerdict.join(WATCH_JOIN_MAX);
            }
            if (backlog != null) {
                backlog.join(WATCH_JOIN_MAX);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        System.out.println("\ndemo: load stopped; reading the final state of both stores...");
    }

    private static String expected(String fault) {
        return switch (fault) {
            case "redis-failover-fast" -> "the replica that lacks the last writes becomes master: the service "
                    + "notices (the dead master, or the stale copy: a regression), the SKUs are taken over by the "
                    + "database and reloaded from it, so the stale copy never sells; no acknowledged order is lost";
            case "kafka-broker-kill" -> "two of three brokers keep the journal durable: sales go on";
            case "postgres-pause" -> "sales go on into Kafka and stock pages still answer from Redis; the backlog "
                    + "passes " + BACKLOG_DEGRADE_ABOVE + " events and the service declares the degrade (reservations "
                    + "throttled), then drains it and lifts it once the database is back";
            case "inflation" -> "the probe measures the exact drift and freezes the SKU; the heal rebases it";
            default -> "definite answers again soon after the heal";
        };
    }

    /**
     * The incidents that are requests rather than faults, played beside the load: a catalogue of
     * 1,000 SKUs imported and preheated into Redis under the load, a cancel that arrives before its
     * reserve, and two orders with the same SKU, quantity and second.
     */
    private void scriptedIncidents(Target instance) {
        try {
            preheatUnderLoad(instance);
            earlyCancel(instance);
            sameContentSameSecond(instance);
        } catch (RuntimeException e) {
            verdicts.record("scripted incidents", false, "stopped: " + e);
        }
    }

    private void preheatUnderLoad(Target instance) {
        System.out.printf("%n>> incident: a catalogue of %d SKUs imported and preheated during the peak%n"
                + "   expected: the import creates every SKU; the preheat loads them into Redis, paced, while sales go on%n",
                ORDINARY_SKUS);
        StringBuilder csv = new StringBuilder("sku,total,buckets\n");
        for (int i = 0; i < ORDINARY_SKUS; i++) {
            csv.append(String.format("%s%05d,200,2%n", ORDINARY_PREFIX, i));
        }
        HttpResponse<String> started = post(instance, "/api/v1/admin/skus:import", csv.toString(), "text/csv");
        if (started.statusCode() != 202) {
            verdicts.record("preheat under load", false, "the import answered " + started.statusCode());
            return;
        }
        String location = started.headers().firstValue("Location").orElseThrow();
        long deadline = System.nanoTime() + PREHEAT_WAIT_MAX.toNanos();
        Api.Answer job;
        do {
            LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
            job = api.call(instance.baseUrl(), "GET", location, null, true);
        } while (job.ok() && "RUNNING".equals(job.text("state")) && System.nanoTime() < deadline);
        long created = job.ok() ? job.number("created") : 0;
        Api.Answer preheat;
        do {
            LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
            preheat = api.call(instance.baseUrl(), "GET", "/api/v1/admin/preheat", null, true);
        } while (preheat.ok() && "RUNNING".equals(preheat.text("state")) && System.nanoTime() < deadline);
        long loaded = preheat.ok() ? preheat.number("loaded") + preheat.number("present") : 0;
        boolean passed = created == ORDINARY_SKUS && loaded >= ORDINARY_SKUS;
        verdicts.record("preheat under load", passed, created + " SKUs created, " + loaded
                + " in Redis after the preheat (" + (preheat.ok() ? preheat.text("state") : "unreadable") + ")");
    }

    private void earlyCancel(Target instance) {
        System.out.printf("%n>> incident: a cancel that arrives before its reserve%n"
                + "   expected: the cancel leaves a tombstone; the late reserve is refused ORDER_CANCELLED%n");
        String order = "demo-early-" + System.nanoTime();
        Api.Answer cancel = api.call(instance.baseUrl(), "POST", "/api/v1/reservations/" + order + "/cancel", null,
                false);
        Api.Answer reserve = api.call(instance.baseUrl(), "POST", "/api/v1/reservations", Map.of("orderId", order,
                "lines", List.of(Map.of("skuId", ORDINARY_PREFIX + "00001", "qty", 1))), false);
        boolean passed = cancel.status() == 200 && reserve.status() == 409 && "ORDER_CANCELLED".equals(reserve.code());
        verdicts.record("cancel before reserve", passed, "cancel " + cancel.status() + ", then reserve "
                + reserve.status() + " " + reserve.code());
    }

    private void sameContentSameSecond(Target instance) {
        System.out.printf("%n>> incident: two customers order the same SKU and quantity in the same second%n"
                + "   expected: two reservations (the order id is the key, never SKU + quantity + time)%n");
        List<Integer> statuses = new ArrayList<>();
        for (String order : List.of("demo-twin-a-" + System.nanoTime(), "demo-twin-b-" + System.nanoTime())) {
            statuses.add(api.call(instance.baseUrl(), "POST", "/api/v1/reservations", Map.of("orderId", order,
                    "lines", List.of(Map.of("skuId", ORDINARY_PREFIX + "00002", "qty", 1))), false).status());
        }
        verdicts.record("same order, same second", statuses.equals(List.of(201, 201)),
                "answered " + statuses + " (two reservations)");
    }

    private HttpResponse<String> post(Target instance, String path, String body, String contentType) {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create(instance.baseUrl() + path))
                    .timeout(Duration.ofSeconds(60)).header("Authorization", "Bearer " + Cluster.ADMIN_KEY)
                    .header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofString(body)).build();
            return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** The load's stretches in history time: before midnight, the spike before the first fault, the second wave, the rest. */
    private Map<String, long[]> stretches() {
        Map<String, long[]> stretches = new java.util.LinkedHashMap<>();
        long midnight = loadStartedMillis + traffic.midnight().toMillis();
        stretches.put(PeakTraffic.BEFORE_MIDNIGHT.name(), new long[] {loadStartedMillis, midnight});
        stretches.put(PeakTraffic.MIDNIGHT.name(), new long[] {midnight,
                loadStartedMillis + schedule.warmUp().toMillis()});
        if (traffic.waveFrom() != null) {
            long waveUntil = Math.min(loadEndedMillis, loadStartedMillis + traffic.waveUntil().toMillis());
            stretches.put(PeakTraffic.SECOND_WAVE.name(), new long[] {loadStartedMillis
                    + traffic.waveFrom().toMillis(), waveUntil});
            stretches.put(PeakTraffic.TAIL.name(), new long[] {waveUntil, loadEndedMillis});
        }
        if (pauseFromMillis >= 0 && pauseUntilMillis >= 0) {
            stretches.put("database paused", new long[] {pauseFromMillis, pauseUntilMillis});
        }
        return stretches;
    }

    /** Prints the books and every verdict; the ending names each that failed. */
    private Ending books(Outcome outcome, Path folder) {
        System.out.println("\n================ the books ================");
        for (RuleResult rule : outcome.verdict().results()) {
            System.out.printf("%s %-30s %s%n", rule.passed() ? "PASS" : "FAIL", rule.rule(), rule.summary());
        }
        String perSku = "";
        String traffic = "";
        if (history != null) {
            long letters = Books.deadLetters(folder);
            List<Books.Line> lines = Books.of(history);
            perSku = Books.render(lines) + "dead letters: " + (letters < 0 ? "not read" : letters) + "\n";
            List<String> off = lines.stream().filter(line -> !line.balanced()).map(Books.Line::sku).toList();
            verdicts.record("the books", off.isEmpty() && !lines.isEmpty(), off.isEmpty()
                    ? lines.size() + " SKUs: held and sold equal what the orders were told, to the unit"
                    : "off on " + off + " (marked '<- look' above)");
            traffic = Books.traffic(history, stretches());
            System.out.println("\nper SKU, at the end (in brackets: what the order services were told)");
            System.out.print(perSku);
            System.out.println("\nthe traffic");
            System.out.print(traffic);
        }
        System.out.println("\nincidents:");
        verdicts.all().forEach(v -> System.out.printf("%s %-24s %s%n", v.passed() ? "PASS" : "FAIL", v.incident(),
                v.detail()));
        StringBuilder received = new StringBuilder();
        alerts.received().stream().limit(ALERTS_SHOWN).forEach(body -> received.append("  ")
                .append(body.length() > ALERT_CHARS_SHOWN ? body.substring(0, ALERT_CHARS_SHOWN) + "…" : body)
                .append('\n'));
        System.out.printf("%nalerts received by the demo's webhook: %d%n%s", alerts.count(), received);
        List<String> failures = new ArrayList<>();
        outcome.verdict().results().stream().filter(rule -> outcome.unexpectedFailures().contains(rule.rule()))
                .forEach(rule -> failures.add("rule " + rule.rule() + ": " + rule.summary()));
        verdicts.all().stream().filter(v -> !v.passed())
                .forEach(v -> failures.add("incident " + v.incident() + ": " + v.detail()));
        if (verdicts.all().isEmpty()) {
            failures.add("no incident was verified");
        }
        boolean passed = failures.isEmpty();
        Path report = folder.resolve("report.html");
        HtmlReport.append(report, demoSection(passed, perSku, traffic, received.toString()));
        System.out.printf("%nreport: %s%nverdict: %s%n", report, passed ? "PASSED: every verdict holds" : "FAILED");
        return new Ending(failures);
    }

    /** The report's part only the demo has: each incident's verdict, the books, the traffic, the alerts. */
    private String demoSection(boolean passed, String perSku, String traffic, String received) {
        StringBuilder h = new StringBuilder("<h2>The demo</h2>\n");
        h.append(passed ? "<p class=\"verdict valid\">PASSED: every verdict holds</p>\n"
                : "<p class=\"verdict invalid\">FAILED</p>\n");
        h.append("<table><tr><th>incident</th><th>verdict</th><th>what was seen</th></tr>\n");
        for (Verdicts.Verdict v : verdicts.all()) {
            h.append("<tr><td>").append(HtmlReport.esc(v.incident())).append("</td><td class=\"")
                    .append(v.passed() ? "pass\">PASS" : "fail\">FAIL").append("</td><td>")
                    .append(HtmlReport.esc(v.detail())).append("</td></tr>\n");
        }
        h.append("</table>\n<h3>Per SKU at the end (in brackets: what the order services were told)</h3>\n<pre>")
                .append(HtmlReport.esc(perSku)).append("</pre>\n<h3>The traffic</h3>\n<pre>")
                .append(HtmlReport.esc(traffic)).append("</pre>\n<h3>Alerts the demo's webhook received: ")
                .append(alerts.count()).append("</h3>\n<pre>").append(HtmlReport.esc(received)).append("</pre>\n");
        return h.toString();
    }
}
