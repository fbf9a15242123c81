package io.stockguard.platform;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The deployment recipes under {@code deploy/} as the tests read them: every YAML document, the
 * PromQL of the alert rules and of the Grafana dashboard, the metric names and label matchers in
 * that PromQL, and the environment StockGuard's containers are given in compose and Kubernetes.
 */
final class DeployRecipes {

    /** Surefire and failsafe run in the module directory (service/); the recipes are beside it. */
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Path DEPLOY = ROOT.resolve("deploy");
    static final Path PROMETHEUS = DEPLOY.resolve("prometheus");
    static final Path ALERTS = PROMETHEUS.resolve("alerts.yml");
    static final Path ALERTS_TEST = PROMETHEUS.resolve("alerts.test.yml");
    static final Path SCRAPE_CONFIG = PROMETHEUS.resolve("prometheus.yml");
    static final Path DASHBOARD = DEPLOY.resolve("grafana").resolve("stockguard.json");
    static final Path DOCKERFILE = DEPLOY.resolve("docker").resolve("Dockerfile");
    static final Path COMPOSE = DEPLOY.resolve("docker").resolve("compose.yml");
    static final Path K8S = DEPLOY.resolve("k8s");
    static final Path OPERATIONS = ROOT.resolve("docs").resolve("operations.md");

    /** What the recipes point probes at; DeployRecipesIT checks that a running service answers them. */
    static final String LIVENESS = "/actuator/health/liveness";
    static final String READINESS = "/actuator/health/readiness";
    static final String METRICS = "/actuator/prometheus";

    /** Grafana's variables in the dashboard's queries, replaced by values Prometheus itself accepts. */
    private static final Map<String, String> GRAFANA_VARIABLES = Map.of(
            "$__rate_interval", "1m", "$__interval", "1m", "$__range", "1h", "$job", ".*", "$instance", ".*");

    private static final Set<String> PROMQL_KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left",
            "group_right", "bool", "and", "or", "unless", "offset", "inf", "nan", "atan2");
    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"");
    private static final Pattern GROUPING = Pattern.compile(
            "\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w.$])[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern SELECTOR = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*\\{([^}]*)}");
    private static final Pattern LABEL_VALUES = Pattern.compile("^label_values\\((.*),\\s*[a-zA-Z_][a-zA-Z0-9_]*\\)$");
    private static final Pattern MATCHER = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|!~|!=|=)\\s*\"([^\"]*)\"");

    private DeployRecipes() {
    }

    /** A label matcher of a selector: {@code metric{label op "value"}}. */
    record LabelMatcher(String metric, String label, String operator, String value) {
    }

    /** The shell command the image's HEALTHCHECK runs (its shell form, continuation lines joined). */
    static String healthcheckCommand() {
        String joined = read(DOCKERFILE).replaceAll("\\\\\n", " ");
        Matcher matcher = Pattern.compile("(?m)^HEALTHCHECK\\s.*?\\sCMD\\s+(.*)$")
                .matcher(joined);
        if (!matcher.find()) {
            throw new AssertionError("no HEALTHCHECK ... CMD in " + DOCKERFILE);
        }
        return matcher.group(1).strip();
    }


    /**
     * A tool on the PATH the recipes are checked with (promtool, kubectl). Where CI is set (as for
     * .ci/run) a missing one fails the test, so a green build always means the recipes were checked;
     * on a developer's machine without it the test is skipped, saying what to install.
     */
    static Path requiredTool(String name, String what) {
        Optional<Path> found = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .filter(directory -> !directory.isBlank()).map(directory -> Path.of(directory, name))
                .filter(Files::isExecutable).findFirst();
        if (found.isPresent()) {
            return found.get();
        }
        String ci = System.getenv("CI");
        if (ci != null && !ci.isBlank() && !ci.equalsIgnoreCase("false") && !ci.equals("0")) {
            throw new AssertionError(name + " is not on PATH, and CI=" + ci + " requires it: install " + what);
        }
        Assumptions.abort(name + " is not on PATH (install " + what + "); CI is not set, so this check is skipped");
        throw new IllegalStateException("not reached");
    }

    /** What a command prints, requiring it to end within 2 minutes with 0; its errors only go into a failure. */
    static String output(Path directory, String... command) {
        Path errors = null;
        try {
            errors = Files.createTempFile("deploy-recipes-", ".err");
            Process process = new ProcessBuilder(command).directory(directory.toFile())
                    .redirectError(errors.toFile()).start();
            String output;
            try (InputStream out = process.getInputStream()) {
                output = new String(out.readAllBytes(), StandardCharsets.UTF_8);
            }
            if (!process.waitFor(2, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish in 2 minutes:\n" + output);
            }
            if (process.exitValue() != 0) {
                throw new AssertionError(String.join(" ", command) + " in " + directory + " exited "
                        + process.exitValue() + ":\n" + output + Files.readString(errors));
            }
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        } finally {
            if (errors != null) {
                errors.toFile().delete();
            }
        }
    }

    static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every YAML file under deploy/. */
    static List<Path> yamlFiles() {
        try (Stream<Path> files = Files.walk(DEPLOY)) {
            return files.filter(Files::isRegularFile)
                    .filter(f -> f.toString().endsWith(".yml") || f.toString().endsWith(".yaml"))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Every document of a YAML file, parsed safely (no custom tags) and with merge keys resolved, as
     * compose resolves the {@code <<: *anchor} the compose file uses.
     */
    static List<Object> documents(Path file) {
        List<Object> documents = new ArrayList<>();
        for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(read(file))) {
            if (document != null) {
                documents.add(document);
            }
        }
        return documents;
    }

    static Map<String, Object> document(Path file) {
        List<Object> documents = documents(file);
        if (documents.size() != 1 || !(documents.getFirst() instanceof Map<?, ?>)) {
            throw new IllegalStateException(file + " should hold one mapping, holds " + documents.size() + " documents");
        }
        return map(documents.getFirst());
    }

    /** The rules of alerts.yml, by alert name, in file order. */
    static Map<String, Map<String, Object>> alertRules() {
        Map<String, Map<String, Object>> rules = new LinkedHashMap<>();
        for (Object group : list(document(ALERTS).get("groups"))) {
            for (Object rule : list(map(group).get("rules"))) {
                Map<String, Object> fields = map(rule);
                if (fields.get("alert") instanceof String name && rules.put(name, fields) != null) {
                    throw new IllegalStateException("alert " + name + " is defined twice in " + ALERTS);
                }
            }
        }
        return rules;
    }

    static JsonNode dashboard() {
        return JsonMapper.builder().build().readTree(read(DASHBOARD));
    }

    /** The dashboard's panels, rows excluded, nested rows' panels included. */
    static List<JsonNode> dashboardPanels() {
        List<JsonNode> panels = new ArrayList<>();
        for (JsonNode panel : dashboard().path("panels")) {
            if ("row".equals(panel.path("type").asString())) {
                panel.path("panels").forEach(panels::add);
            } else {
                panels.add(panel);
            }
        }
        return panels;
    }

    /** Every PromQL query of the dashboard (panel targets and query variables), as written. */
    static List<String> dashboardQueries() {
        List<String> queries = new ArrayList<>();
        for (JsonNode panel : dashboardPanels()) {
            for (JsonNode target : panel.path("targets")) {
                queries.add(target.path("expr").asString());
            }
        }
        for (JsonNode variable : dashboard().path("templating").path("list")) {
            if ("query".equals(variable.path("type").asString())) {
                queries.add(variable.path("definition").asString());
            }
        }
        return queries;
    }

    /**
     * A dashboard query as Prometheus would receive it: Grafana's variables replaced, and a
     * {@code label_values(selector, label)} variable query turned into its selector.
     */
    static String asPromql(String query) {
        String promql = query;
        for (Map.Entry<String, String> variable : GRAFANA_VARIABLES.entrySet()) {
            promql = promql.replace(variable.getKey(), variable.getValue());
        }
        Matcher labelValues = LABEL_VALUES.matcher(promql.strip());
        if (labelValues.matches()) {
            promql = labelValues.group(1);
        }
        if (promql.contains("$")) {
            throw new IllegalStateException("a Grafana variable DeployRecipes does not know in: " + query);
        }
        return promql;
    }

    /** Every PromQL expression the recipes use: the alert rules' and the dashboard's. */
    static List<String> promqlExpressions() {
        List<String> expressions = new ArrayList<>();
        alertRules().values().forEach(rule -> expressions.add((String) rule.get("expr")));
        dashboardQueries().forEach(query -> expressions.add(asPromql(query)));
        return expressions;
    }

    /** The metric names an expression selects: identifiers that are neither functions, keywords nor labels. */
    static Set<String> metricNames(String promql) {
        String bare = STRING.matcher(promql).replaceAll("\"\"");
        bare = bare.replaceAll("\\{[^}]*}", " ").replaceAll("\\[[^]]*]", " ");
        bare = GROUPING.matcher(bare).replaceAll(" ");
        Set<String> names = new LinkedHashSet<>();
        Matcher identifier = IDENTIFIER.matcher(bare);
        while (identifier.find()) {
            String name = identifier.group();
            boolean call = bare.substring(identifier.end()).stripLeading().startsWith("(");
            if (!call && !PROMQL_KEYWORDS.contains(name.toLowerCase(Locale.ROOT))) {
                names.add(name);
            }
        }
        return names;
    }

    /** Every metric name the recipes use. */
    static Set<String> metricNames() {
        Set<String> names = new LinkedHashSet<>();
        promqlExpressions().forEach(expression -> names.addAll(metricNames(expression)));
        return names;
    }

    /** The label matchers of an expression's selectors. */
    static List<LabelMatcher> matchers(String promql) {
        List<LabelMatcher> matchers = new ArrayList<>();
        Matcher selector = SELECTOR.matcher(promql);
        while (selector.find()) {
            Matcher matcher = MATCHER.matcher(selector.group(2));
            while (matcher.find()) {
                matchers.add(new LabelMatcher(selector.group(1), matcher.group(1), matcher.group(2), matcher.group(3)));
            }
        }
        return matchers;
    }

    /** The compose file's services, anchors and merge keys resolved. */
    static Map<String, Map<String, Object>> composeServices() {
        Map<String, Map<String, Object>> services = new LinkedHashMap<>();
        map(document(COMPOSE).get("services")).forEach((name, service) -> services.put(name, map(service)));
        return services;
    }

    /** Whether a compose service runs the StockGuard image. */
    static boolean isStockGuard(Map<String, Object> service) {
        return service.get("image") instanceof String image && image.startsWith("stockguard:");
    }

    /** A compose service's environment, in either of compose's forms (a map, or a list of NAME=value). */
    static Map<String, String> environment(Map<String, Object> service) {
        Map<String, String> environment = new LinkedHashMap<>();
        Object declared = service.get("environment");
        if (declared instanceof Map<?, ?> values) {
            values.forEach((name, value) -> environment.put(name.toString(), value == null ? "" : value.toString()));
        } else if (declared instanceof List<?> entries) {
            for (Object entry : entries) {
                String text = entry.toString();
                int equals = text.indexOf('=');
                environment.put(equals < 0 ? text : text.substring(0, equals),
                        equals < 0 ? "" : text.substring(equals + 1));
            }
        }
        return environment;
    }

    /** The overlays of deploy/k8s, one per tier. */
    static final List<String> TIERS = List.of("database", "standard", "full");

    private static final Map<String, List<Map<String, Object>>> RENDERED = new ConcurrentHashMap<>();

    /**
     * What a cluster gets from the tier's overlay: the objects {@code kubectl kustomize} renders from
     * {@code deploy/k8s/overlays/<tier>}, then those of {@code deploy/k8s/prometheus-operator} (a
     * folder of its own, applied beside an overlay where the Operator runs).
     */
    static List<Map<String, Object>> kubernetesObjects(String tier) {
        return RENDERED.computeIfAbsent(tier, t -> render(K8S.resolve("overlays").resolve(t)));
    }

    /** The objects {@code kubectl kustomize} renders from a kustomization folder, and the Operator's. */
    static List<Map<String, Object>> render(Path kustomization) {
        Path kubectl = requiredTool("kubectl", "kubectl 1.21 or newer, whose kustomize renders deploy/k8s");
        List<Map<String, Object>> objects = new ArrayList<>();
        for (Object document : new Yaml(new SafeConstructor(new LoaderOptions()))
                .loadAll(output(K8S, kubectl.toString(), "kustomize", kustomization.toString()))) {
            if (document != null) {
                objects.add(map(document));
            }
        }
        try (Stream<Path> files = Files.walk(K8S.resolve("prometheus-operator"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                documents(file).forEach(document -> objects.add(map(document)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return List.copyOf(objects);
    }

    static Map<String, Object> kubernetesObject(String tier, String kind, String name) {
        return kubernetesObject(kubernetesObjects(tier), kind, name);
    }

    static Map<String, Object> kubernetesObject(List<Map<String, Object>> objects, String kind, String name) {
        return objects.stream()
                .filter(o -> kind.equals(o.get("kind")) && name.equals(map(o.get("metadata")).get("name")))
                .findFirst().orElseThrow(() -> new AssertionError("no " + kind + " " + name + " rendered"));
    }

    /** The StockGuard container of the Deployment. */
    static Map<String, Object> stockGuardContainer(List<Map<String, Object>> objects) {
        Map<String, Object> podSpec = at(kubernetesObject(objects, "Deployment", "stockguard"), "spec", "template",
                "spec");
        return list(podSpec.get("containers")).stream().map(DeployRecipes::map)
                .filter(c -> "stockguard".equals(c.get("name"))).findFirst()
                .orElseThrow(() -> new AssertionError("the Deployment has no container named stockguard"));
    }

    static Map<String, String> kubernetesEnvironment(String tier) {
        return kubernetesEnvironment(kubernetesObjects(tier));
    }

    /**
     * The environment the Deployment gives StockGuard: its container's env entries and every key of
     * the ConfigMaps and Secrets its envFrom names, with their values (null when given by reference).
     */
    static Map<String, String> kubernetesEnvironment(List<Map<String, Object>> objects) {
        Map<String, Object> container = stockGuardContainer(objects);
        Map<String, String> environment = new LinkedHashMap<>();
        for (Object source : list(container.get("envFrom"))) {
            Map<String, Object> from = map(source);
            if (from.get("configMapRef") != null) {
                String name = (String) map(from.get("configMapRef")).get("name");
                map(kubernetesObject(objects, "ConfigMap", name).get("data"))
                        .forEach((key, value) -> environment.put(key, String.valueOf(value)));
            }
            if (from.get("secretRef") != null) {
                String name = (String) map(from.get("secretRef")).get("name");
                Map<String, Object> secret = kubernetesObject(objects, "Secret", name);
                Object values = secret.get("stringData") != null ? secret.get("stringData") : secret.get("data");
                map(values).forEach((key, value) -> environment.put(key, String.valueOf(value)));
            }
        }
        for (Object entry : list(container.get("env"))) {
            Map<String, Object> variable = map(entry);
            environment.put((String) variable.get("name"), (String) variable.get("value"));
        }
        return environment;
    }

    /** A mapping nested in a mapping, by keys; fails naming the path when a level is missing. */
    static Map<String, Object> at(Map<String, Object> root, String... keys) {
        Map<String, Object> current = root;
        for (String key : keys) {
            if (!(current.get(key) instanceof Map<?, ?>)) {
                throw new AssertionError("no mapping at " + String.join(".", keys) + " (missing: " + key + ")");
            }
            current = map(current.get(key));
        }
        return current;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object value) {
        if (value == null) {
            return Map.of();
        }
        if (!(value instanceof Map<?, ?>)) {
            throw new AssertionError("expected a mapping, found " + value);
        }
        return (Map<String, Object>) value;
    }

    static List<Object> list(Object value) {
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof List<?> items)) {
            throw new AssertionError("expected a list, found " + value);
        }
        return new ArrayList<>(items);
    }
}
