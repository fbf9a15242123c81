package io.stockguard.platform;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.RecordComponent;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.FileSystemResource;
import tools.jackson.databind.json.JsonMapper;

/**
 * Renders {@code docs/configuration.md} from the {@code META-INF/spring-configuration-metadata.json}
 * that {@code spring-boot-configuration-processor} writes at compile time: one table per
 * {@code @ConfigurationProperties} class, its rows in the order the record declares them, each
 * meaning taken from the record's javadoc ({@code @param}). A few settings the processor cannot see
 * (Spring Boot's own, those read straight from the environment, and the elements of lists of
 * objects) are written by hand below.
 */
final class ConfigurationReference {

    static final String METADATA = "META-INF/spring-configuration-metadata.json";
    static final String PREFIX = "stockguard";
    static final String REGENERATE = "./mvnw -B -pl service test -Dtest=ConfigurationReferenceTest "
            + "-Dsurefire.failIfNoSpecifiedTests=false -Dstockguard.docs.write=true";

    /** One row of a table; {@code envVar} is empty when there is no single environment variable for it. */
    record Row(String property, String envVar, String defaultValue, String meaning) {
    }

    /** One table: a heading, the prose above the table and (optionally) below it. */
    record Section(String prefix, String title, String lead, List<Row> rows, String trailer) {
    }

    /** A row written by hand; {@code defaultValue} may hold {@code %s}, replaced by the application.yml value. */
    private record HandRow(String property, String defaultValue, String meaning) {
    }

    /** A hand-written row for the elements of a list of objects: {@code component} names the record component. */
    private record ElementRow(String component, String suffix, String envSuffix, String defaultValue, String meaning) {
    }

    private record Title(String title, String lead, String trailer) {
    }

    private record Group(String name, String type, String sourceMethod) {
    }

    private record Property(String name, String type, String description, Object defaultValue) {
    }

    // ---- hand-written content ----------------------------------------------------------------

    private static final String INTRO = """
            # Configuration

            Settings of the service; every `stockguard.*` property with its default and meaning.

            Ordinary Spring Boot configuration: `application.yml`, `--name=value` arguments, or environment
            variables (`stockguard.data-dir` → `STOCKGUARD_DATA_DIR`). All settings are validated at start-up;
            a bad value stops the service with a message naming it. Durations are written like `500ms`, `2s`,
            `15m` or `7d`; a list is comma-separated (`a,b`) or indexed (`name[0]`, in the environment `NAME_0`).

            How to use these settings in a deployment, with examples, is in [operations.md](operations.md).

            This file is generated from the javadoc of the service's `@ConfigurationProperties` classes (through
            the `spring-configuration-metadata.json` the build writes): change the javadoc, not this file, and
            regenerate it with `%s`.
            """.formatted(REGENERATE);

    private static final String SERVICE_TITLE = "Service and database";
    private static final String SERVICE_LEAD = """
            Spring Boot's own settings that a deployment needs, and two read before the properties classes.""";
    private static final List<HandRow> SERVICE_ROWS = List.of(
            new HandRow("server.port", "%s", "HTTP port"),
            new HandRow("spring.datasource.url", "unset = embedded PostgreSQL",
                    "an external `jdbc:postgresql://…` or `jdbc:mariadb://…` database (`jdbc:mysql://` is accepted, "
                            + "but MySQL is untested)"),
            new HandRow("spring.datasource.username", "", "its user"),
            new HandRow("spring.datasource.password", "", "its password"),
            new HandRow("spring.datasource.hikari.maximum-pool-size", "%s", "database connections per instance"),
            new HandRow("spring.datasource.hikari.connection-timeout", "%s (ms)",
                    "wait for a connection before answering 503"),
            new HandRow("logging.structured.format.console", "unset = text lines",
                    "`ecs` or `logstash`: one JSON object per line, a request's lines with its `traceId` "
                            + "([operations.md](operations.md#logs))"),
            new HandRow("management.opentelemetry.tracing.export.otlp.endpoint", "unset = no export",
                    "a collector's OTLP/HTTP endpoint (`http://…:4318/v1/traces`): spans are recorded and exported "
                            + "([operations.md](operations.md#tracing))"),
            new HandRow("management.tracing.sampling.probability", "%s",
                    "once spans are exported, the share of new traces recorded; a caller's sampled `traceparent` "
                            + "is always followed"),
            new HandRow("stockguard.data-dir", "%s", "embedded tier: PostgreSQL data and generated keys"),
            new HandRow("stockguard.embedded.postgres-port", "random", "fixed port for the embedded PostgreSQL"));

    /** Sections in this order; a properties class not named here follows them, titled by its prefix. */
    private static final Map<String, Title> TITLES = new LinkedHashMap<>();

    static {
        TITLES.put("stockguard", new Title("Tier", """
                Which tier this instance runs: the database tier (embedded or on an external database) keeps both
                defaults, the standard tier sets `stockguard.ledger=redis`, the full tier also
                `stockguard.journal=kafka`. Which tier fits which shop is in the
                [README](../README.md#which-tier-for-which-shop); setting them up in
                [operations.md](operations.md#tiers-standard-and-full).""", null));
        TITLES.put("stockguard.database", new Title("Database", """
                StockGuard's own database settings; the connection itself is `spring.datasource.*`
                ([above](#service-and-database)).""", null));
        TITLES.put("stockguard.reservation", new Title("Reservations", null, null));
        TITLES.put("stockguard.security", new Title("Keys", """
                Keys of callers. Each is `secret` or `name:secret`, at least 16 characters of secret; the name
                (or, without one, a fingerprint of the secret) is what the audit log records as the actor.""", """
                With an external database nothing is generated: keys (and, for the console, people) must be
                configured; see [operations.md](operations.md#deploying-with-an-external-database)."""));
        TITLES.put("stockguard.security.people", new Title("Console people", null, null));
        TITLES.put("stockguard.console", new Title("Console", """
                What the console reads per page; each bounds the work one page view may cost the database and
                the hot store. The drift thresholds only draw the chart's dashed lines: the probe decides the
                levels (`stockguard.reconciliation.levels.*`), so keep them equal to the probe's.""", null));
        TITLES.put("stockguard.alerting", new Title("Alerting", """
                Channels and levels are explained in [operations.md](operations.md#alerts).""", null));
        TITLES.put("stockguard.stock-levels", new Title("Stock-level events", """
                SOLD_OUT, BACK_IN_STOCK and LOW_STOCK for downstream systems, by signed webhook; explained in
                [api.md](api.md#stock-level-events).""", null));
        TITLES.put("stockguard.redis", new Title("Standard tier: Redis", """
                Used when `stockguard.ledger=redis`. The service starts, and serves from the database, while Redis
                is down.""", null));
        TITLES.put("stockguard.kafka", new Title("Full tier: Kafka", """
                Used when `stockguard.journal=kafka`. How the database path takes a SKU over from Redis is set
                with `stockguard.redis.takeover.*` ([Redis](#standard-tier-redis)).""", null));
        TITLES.put("stockguard.reconciliation", new Title("Reconciliation probe", null, null));
    }

    /** What the default cell says where the default alone would mislead (empty, or decided elsewhere). */
    private static final Map<String, String> DEFAULT_NOTES = Map.of(
            "stockguard.security.api-keys", "generated in the embedded tier",
            "stockguard.security.admin-keys", "generated in the embedded tier",
            "stockguard.security.people.users", "generated `admin` in the embedded tier",
            "stockguard.alerting.instance", "host name",
            "stockguard.alerting.channels", "none",
            "stockguard.stock-levels.webhooks", "none");

    /** The elements of lists of objects, which the metadata does not describe. */
    private static final Map<String, List<ElementRow>> ELEMENT_ROWS = Map.of("stockguard.alerting.channels", List.of(
            new ElementRow("name", "[n].name", "_0_NAME", "",
                    "required; 1 to 64 of `A-Z a-z 0-9 . _ -`, unique regardless of case"),
            new ElementRow("type", "[n].type", "_0_TYPE", "",
                    "required; `FEISHU`, `DINGTALK`, `SLACK`, `WEBHOOK`, `SMS` or `PHONE`"),
            new ElementRow("url", "[n].url", "_0_URL", "",
                    "required; an http(s) URL, for DingTalk including its `access_token`"),
            new ElementRow("secret", "[n].secret", "_0_SECRET", "none",
                    "Feishu's / DingTalk's signing secret (only those types)"),
            new ElementRow("headers", "[n].headers.<name>", "", "none",
                    "sent with every request, e.g. `Authorization` for an SMS provider"),
            new ElementRow("recipients", "[n].recipients", "_0_RECIPIENTS", "",
                    "SMS and phone: the numbers (required for those types, refused for others)"),
            new ElementRow("levels", "[n].levels", "_0_LEVELS",
                    "by type (the level table in [operations.md](operations.md#alerts))",
                    "the levels this channel takes: `INFO`, `WARN`, `THROTTLE`, `FREEZE`"),
            new ElementRow("timeout", "[n].timeout", "_0_TIMEOUT", "`stockguard.alerting.timeout`",
                    "connect and request timeout of one attempt")),
            "stockguard.stock-levels.webhooks", List.of(
            new ElementRow("name", "[n].name", "_0_NAME", "",
                    "required; 1 to 64 of `A-Z a-z 0-9 . _ : -`, unique; deliveries are recorded under it"),
            new ElementRow("url", "[n].url", "_0_URL", "", "required; an http(s) URL that takes a POST"),
            new ElementRow("secret", "[n].secret", "_0_SECRET", "",
                    "required, 16 characters or more: the key of every delivery's HMAC-SHA256 signature")));

    // ---- the model -----------------------------------------------------------------------------

    private final Map<String, Group> groups = new TreeMap<>();
    private final Map<String, Property> properties = new TreeMap<>();
    private final Map<String, Object> applicationYml;
    private final Map<String, String> undetermined = new TreeMap<>();
    private final List<Section> sections;

    private ConfigurationReference(List<Map<String, Object>> metadata, Map<String, Object> applicationYml) {
        this.applicationYml = applicationYml;
        for (Map<String, Object> document : metadata) {
            for (Map<String, Object> group : list(document.get("groups"))) {
                String name = (String) group.get("name");
                if (isStockGuard(name)) {
                    groups.put(name, new Group(name, (String) group.get("type"), (String) group.get("sourceMethod")));
                }
            }
            for (Map<String, Object> property : list(document.get("properties"))) {
                String name = (String) property.get("name");
                if (isStockGuard(name)) {
                    properties.put(name, new Property(name, (String) property.get("type"),
                            (String) property.get("description"), property.get("defaultValue")));
                }
            }
        }
        if (properties.isEmpty()) {
            throw new IllegalStateException("no stockguard.* property in any " + METADATA + " on the class path: is "
                    + "spring-boot-configuration-processor on the compiler's processor path?");
        }
        this.sections = buildSections();
    }

    /** Reads every metadata file on the class path and the module's application.yml. */
    static ConfigurationReference load(ClassLoader classLoader, Path applicationYml) {
        JsonMapper mapper = JsonMapper.builder().build();
        List<Map<String, Object>> documents = new ArrayList<>();
        try {
            Enumeration<URL> resources = classLoader.getResources(METADATA);
            while (resources.hasMoreElements()) {
                try (InputStream in = resources.nextElement().openStream()) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> document = mapper.readValue(in, Map.class);
                    documents.add(document);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ConfigurationReference(documents, readYaml(applicationYml));
    }

    private static Map<String, Object> readYaml(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException("no application.yml at " + file.toAbsolutePath());
        }
        Map<String, Object> values = new LinkedHashMap<>();
        try {
            for (PropertySource<?> source : new YamlPropertySourceLoader().load("application",
                    new FileSystemResource(file))) {
                if (source.getSource() instanceof Map<?, ?> map) {
                    for (Object key : map.keySet()) {
                        values.putIfAbsent(key.toString(), source.getProperty(key.toString()));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return values;
    }

    /** The document. */
    String render() {
        StringBuilder out = new StringBuilder(INTRO);
        for (Section section : sections) {
            out.append("\n## ").append(section.title()).append("\n\n");
            if (section.lead() != null) {
                out.append(section.lead().strip()).append("\n\n");
            }
            out.append("| property | env var | default | meaning |\n|---|---|---|---|\n");
            for (Row row : section.rows()) {
                out.append("| `").append(row.property()).append("` | ")
                        .append(row.envVar().isEmpty() ? "" : "`" + row.envVar() + "`").append(" | ")
                        .append(row.defaultValue()).append(" | ").append(row.meaning()).append(" |\n");
            }
            if (section.trailer() != null) {
                out.append("\n").append(section.trailer().strip()).append("\n");
            }
        }
        return out.toString();
    }

    List<Section> sections() {
        return sections;
    }

    /** Every {@code stockguard.*} property of the metadata. */
    Set<String> propertyNames() {
        return properties.keySet();
    }

    /** The {@code stockguard.*} properties without a description, i.e. without a javadoc {@code @param}. */
    List<String> undescribed() {
        return properties.values().stream()
                .filter(p -> p.description() == null || p.description().isBlank())
                .map(p -> p.name() + " (" + simpleName(sourceClassOf(p.name())) + ")")
                .toList();
    }

    /** Properties whose default is neither in the metadata nor could be bound, with the reason. */
    Map<String, String> undetermined() {
        return undetermined;
    }

    /**
     * Components of the elements of lists (or maps) of objects that have no hand-written row, e.g. a new
     * component of {@code AlertingProperties.Channel}.
     */
    List<String> elementsWithoutRows() {
        List<String> missing = new ArrayList<>();
        for (Property property : properties.values()) {
            Class<?> element = elementRecord(property.type());
            if (element == null) {
                continue;
            }
            Set<String> covered = ELEMENT_ROWS.getOrDefault(property.name(), List.of()).stream()
                    .map(ElementRow::component).collect(Collectors.toSet());
            for (RecordComponent component : element.getRecordComponents()) {
                if (!covered.contains(component.getName())) {
                    missing.add(property.name() + "[n]." + kebab(component.getName()));
                }
            }
        }
        return missing;
    }

    // ---- building the tables --------------------------------------------------------------------

    private List<Section> buildSections() {
        List<Section> result = new ArrayList<>();
        result.add(new Section("", SERVICE_TITLE, SERVICE_LEAD, serviceRows(), null));
        Map<String, List<String>> bySection = new TreeMap<>();
        for (String name : properties.keySet()) {
            bySection.computeIfAbsent(sectionOf(name), k -> new ArrayList<>()).add(name);
        }
        List<String> order = new ArrayList<>(TITLES.keySet());
        bySection.keySet().stream().filter(prefix -> !TITLES.containsKey(prefix)).forEach(order::add);
        for (String prefix : order) {
            List<String> names = bySection.get(prefix);
            if (names == null) {
                continue;
            }
            Title title = TITLES.getOrDefault(prefix, new Title("`" + prefix + "`", null, null));
            List<String> ordered = declarationOrder(prefix, names);
            List<Row> rows = new ArrayList<>();
            for (String name : ordered) {
                rows.add(row(properties.get(name)));
                for (ElementRow element : ELEMENT_ROWS.getOrDefault(name, List.of())) {
                    rows.add(new Row(name + element.suffix(),
                            element.envSuffix().isEmpty() ? "" : envVar(name) + element.envSuffix(),
                            element.defaultValue(), element.meaning()));
                }
            }
            result.add(new Section(prefix, title.title(), title.lead(), rows, title.trailer()));
        }
        return result;
    }

    private List<Row> serviceRows() {
        List<Row> rows = new ArrayList<>();
        for (HandRow hand : SERVICE_ROWS) {
            if (properties.containsKey(hand.property())) {
                throw new IllegalStateException(hand.property() + " is in the metadata now: drop its hand-written row");
            }
            String defaultValue = hand.defaultValue();
            if (defaultValue.contains("%s")) {
                Object value = applicationYml.get(hand.property());
                if (value == null) {
                    throw new IllegalStateException("application.yml no longer sets " + hand.property()
                            + ": give its row in ConfigurationReference a default of its own");
                }
                defaultValue = defaultValue.replace("%s", "`" + value + "`");
            }
            rows.add(new Row(hand.property(), envVar(hand.property()), defaultValue, hand.meaning()));
        }
        return rows;
    }

    /** The table a property belongs to: the longest prefix of a {@code @ConfigurationProperties} class. */
    private String sectionOf(String name) {
        String best = null;
        for (Group group : groups.values()) {
            if (group.sourceMethod() == null && name.startsWith(group.name() + ".")
                    && (best == null || group.name().length() > best.length())) {
                best = group.name();
            }
        }
        return best == null ? name.substring(0, name.lastIndexOf('.')) : best;
    }

    /** The group a property is declared in directly (the class or the nested record). */
    private Group groupOf(String name) {
        Group best = null;
        for (Group group : groups.values()) {
            if (name.startsWith(group.name() + ".") && (best == null || group.name().length() > best.name().length())) {
                best = group;
            }
        }
        return best;
    }

    /** The section's properties in the order its record declares them; the rest alphabetically after. */
    private List<String> declarationOrder(String prefix, List<String> names) {
        Set<String> ordered = new LinkedHashSet<>();
        Group group = groups.get(prefix);
        if (group != null) {
            walk(prefix, classOrNull(group.type()), names, ordered);
        }
        ordered.addAll(names);
        return new ArrayList<>(ordered);
    }

    private void walk(String prefix, Class<?> type, List<String> names, Set<String> ordered) {
        if (type == null || !type.isRecord()) {
            return;
        }
        for (RecordComponent component : type.getRecordComponents()) {
            String name = prefix + "." + kebab(component.getName());
            Group nested = groups.get(name);
            if (nested != null && nested.sourceMethod() != null) {
                walk(name, classOrNull(nested.type()), names, ordered);
            } else if (names.contains(name)) {
                ordered.add(name);
            }
        }
    }

    private Row row(Property property) {
        String env = hasSingleValue(property.type()) ? envVar(property.name()) : "";
        return new Row(property.name(), env, defaultCell(property), meaning(property));
    }

    private String meaning(Property property) {
        if (property.description() == null) {
            return "";
        }
        Group group = groupOf(property.name());
        Set<String> siblings = properties.keySet().stream()
                .filter(n -> group != null && n.startsWith(group.name() + ".")
                        && n.indexOf('.', group.name().length() + 1) < 0)
                .map(n -> n.substring(n.lastIndexOf('.') + 1))
                .collect(Collectors.toSet());
        String meaning = markdown(property.description(), siblings);
        Class<?> type = classOrNull(property.type());
        if (type != null && type.isEnum()) {
            List<String> values = Arrays.stream(type.getEnumConstants())
                    .map(c -> "`" + ((Enum<?>) c).name().toLowerCase(Locale.ROOT) + "`").toList();
            if (!values.stream().allMatch(meaning::contains)) {
                meaning += "; one of " + String.join(", ", values);
            }
        }
        return meaning;
    }

    // ---- defaults ---------------------------------------------------------------------------------

    private String defaultCell(Property property) {
        String value;
        Object configured = applicationYml.get(property.name());
        if (configured != null) {
            value = code(configured.toString());
        } else if (property.defaultValue() != null) {
            value = formatMetadataDefault(property.defaultValue());
        } else {
            value = boundDefault(property.name());
        }
        String note = DEFAULT_NOTES.get(property.name());
        if (note == null) {
            return value;
        }
        return value.isEmpty() || value.equals("empty") ? note : value + " (" + note + ")";
    }

    private static String formatMetadataDefault(Object value) {
        if (value instanceof List<?> list) {
            return list.isEmpty() ? "empty"
                    : code(list.stream().map(String::valueOf).collect(Collectors.joining(",")));
        }
        String text = String.valueOf(value);
        return text.isEmpty() ? "empty" : code(text);
    }

    /**
     * The default a record sets without the metadata knowing it (in its compact constructor, or an
     * empty {@code @DefaultValue}): its group bound from an empty environment, then read through the
     * component's accessor.
     */
    private String boundDefault(String name) {
        Group group = groupOf(name);
        Class<?> type = group == null ? null : classOrNull(group.type());
        if (type == null) {
            undetermined.put(name, "no bindable class for its group");
            return "";
        }
        Object bound;
        try {
            bound = new Binder(new MapConfigurationPropertySource()).bindOrCreate(group.name(), type);
        } catch (RuntimeException e) {
            undetermined.put(name, simpleName(type.getName()) + " refuses an empty configuration: "
                    + rootMessage(e));
            return "";
        }
        String accessor = camel(name.substring(group.name().length() + 1));
        Object value;
        try {
            value = type.getMethod(accessor).invoke(bound);
        } catch (ReflectiveOperationException e) {
            try {
                value = type.getMethod("get" + Character.toUpperCase(accessor.charAt(0)) + accessor.substring(1))
                        .invoke(bound);
            } catch (ReflectiveOperationException e2) {
                undetermined.put(name, "no accessor " + accessor + "() on " + simpleName(type.getName()));
                return "";
            }
        }
        if (value == null) {
            return "";
        }
        if ((value instanceof Collection<?> c && c.isEmpty()) || (value instanceof Map<?, ?> m && m.isEmpty())) {
            return "empty";
        }
        if (value instanceof Duration duration) {
            return code(duration(duration));
        }
        if (value instanceof Collection<?> c) {
            return code(c.stream().map(String::valueOf).collect(Collectors.joining(",")));
        }
        if (value instanceof Enum<?> e) {
            return code(e.name().toLowerCase(Locale.ROOT));
        }
        return code(String.valueOf(value));
    }

    /** A duration as one would write it: {@code 15m}, {@code 2s}, {@code 500ms}. */
    static String duration(Duration duration) {
        if (duration.isZero()) {
            return "0s";
        }
        for (ChronoUnit unit : List.of(ChronoUnit.DAYS, ChronoUnit.HOURS, ChronoUnit.MINUTES, ChronoUnit.SECONDS,
                ChronoUnit.MILLIS, ChronoUnit.MICROS)) {
            Duration one = unit.getDuration();
            if (duration.toNanos() % one.toNanos() == 0) {
                long amount = duration.toNanos() / one.toNanos();
                return amount + switch (unit) {
                    case DAYS -> "d";
                    case HOURS -> "h";
                    case MINUTES -> "m";
                    case SECONDS -> "s";
                    case MILLIS -> "ms";
                    default -> "us";
                };
            }
        }
        return duration.toNanos() + "ns";
    }

    // ---- text -------------------------------------------------------------------------------------

    private static final Pattern INLINE_TAG = Pattern.compile("\\{@(code|literal|link|linkplain)\\s");
    private static final Pattern CAMEL = Pattern.compile("[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+");

    /**
     * Javadoc text as markdown for a table cell: {@code {@code x}} becomes {@code `x`} (a component
     * name of the same record written as its property name), links their label, whitespace one space.
     */
    static String markdown(String javadoc, Set<String> siblings) {
        String text = javadoc.replaceAll("\\s+", " ").strip()
                .replace("<p>", "").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
        StringBuilder out = new StringBuilder();
        int at = 0;
        Matcher tag = INLINE_TAG.matcher(text);
        while (tag.find(at)) {
            out.append(escape(text.substring(at, tag.start())));
            int depth = 1;
            int end = tag.end();
            while (end < text.length() && depth > 0) {
                char c = text.charAt(end);
                depth += c == '{' ? 1 : c == '}' ? -1 : 0;
                end++;
            }
            String body = text.substring(tag.end(), depth == 0 ? end - 1 : end).strip();
            String kind = tag.group(1);
            if (kind.equals("link") || kind.equals("linkplain")) {
                int space = body.indexOf(' ');
                body = space > 0 ? body.substring(space + 1).strip()
                        : body.contains("#") ? body.substring(body.indexOf('#') + 1) : body;
                body = body.replaceAll("\\(.*\\)$", "");
            }
            if (CAMEL.matcher(body).matches() && siblings.contains(kebab(body))) {
                body = kebab(body);
            }
            out.append(kind.equals("literal") ? escape(body) : "`" + escape(body) + "`");
            at = end;
        }
        out.append(escape(text.substring(at)));
        return out.toString();
    }

    private static String escape(String text) {
        return text.replace("|", "\\|");
    }

    private static String code(String text) {
        return "`" + escape(text) + "`";
    }

    /**
     * The environment variable Spring Boot maps to a property: upper case, dots and dashes as
     * underscores ({@code stockguard.data-dir} → {@code STOCKGUARD_DATA_DIR}).
     */
    static String envVar(String property) {
        return property.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /** Whether one environment variable can set the property: not a map, nor a list of objects. */
    private static boolean hasSingleValue(String type) {
        if (type == null || type.startsWith("java.util.Map")) {
            return false;
        }
        int generic = type.indexOf('<');
        if (generic < 0) {
            return true;
        }
        String element = type.substring(generic + 1, type.length() - 1);
        Class<?> elementClass = classOrNull(element);
        return element.startsWith("java.lang.") || element.startsWith("java.time.")
                || (elementClass != null && elementClass.isEnum());
    }

    /** The record that a {@code List}, {@code Set} or {@code Map} property holds, or null. */
    private static Class<?> elementRecord(String type) {
        if (type == null || type.indexOf('<') < 0) {
            return null;
        }
        String inner = type.substring(type.indexOf('<') + 1, type.length() - 1);
        String element = inner.contains(",") ? inner.substring(inner.lastIndexOf(',') + 1).strip() : inner;
        Class<?> elementClass = classOrNull(element);
        return elementClass != null && elementClass.isRecord() ? elementClass : null;
    }

    static String kebab(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    private static String camel(String kebab) {
        StringBuilder out = new StringBuilder();
        boolean upper = false;
        for (char c : kebab.toCharArray()) {
            if (c == '-') {
                upper = true;
            } else {
                out.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return out.toString();
    }

    private String sourceClassOf(String name) {
        Group group = groupOf(name);
        return group == null ? "?" : group.type();
    }

    private static String simpleName(String className) {
        return className.substring(className.lastIndexOf('.') + 1).replace('$', '.');
    }

    private static Class<?> classOrNull(String name) {
        if (name == null) {
            return null;
        }
        try {
            return Class.forName(name, false, ConfigurationReference.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return message.length() > 80 ? message.substring(0, 80) + "…" : message;
    }

    private static boolean isStockGuard(String name) {
        return name != null && (name.equals(PREFIX) || name.startsWith(PREFIX + "."));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Object value) {
        return value instanceof List<?> list ? (List<Map<String, Object>>) list : List.of();
    }
}
