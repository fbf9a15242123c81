package io.stockguard.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient.Response;
import io.stockguard.testkit.TestDatabase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code docs/openapi.json} is the OpenAPI document a running service serves at {@code /v3/api-docs},
 * committed so that order services can generate or check a client without running StockGuard. This
 * test fails when the two differ (compared as JSON, not as text), and checks what the document must
 * say whatever the controllers are: the bearer key on every {@code /api/v1} operation and nowhere
 * else, the problem body with every stable code, and the retry contract. Run it with
 * {@code -Dstockguard.docs.write=true} to rewrite the file, like {@code ConfigurationReferenceTest}.
 */
class OpenApiDocumentIT {

    /** Failsafe runs in the module directory (service/); the docs are beside it. */
    static final Path DOCUMENT = Path.of("..", "docs", "openapi.json");
    static final boolean WRITE = Boolean.getBoolean("stockguard.docs.write");
    static final String REGENERATE = "./mvnw -B -pl service -am verify -Dtest=none "
            + "-Dsurefire.failIfNoSpecifiedTests=false -Dit.test=OpenApiDocumentIT -Dstockguard.docs.write=true";
    private static final String API_DOCS = "/v3/api-docs";
    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private static JsonNode served;

    @BeforeAll
    static void fetch() {
        Response response = RunningService.shared(TestDatabase.Kind.POSTGRESQL).anonymous().send("GET", API_DOCS,
                null);
        assertThat(response.status()).as("GET %s without a key", API_DOCS).isEqualTo(200);
        served = sorted(response.body());
    }

    @Test
    void theCommittedDocumentIsWhatTheServiceServes() throws IOException {
        if (WRITE) {
            Files.writeString(DOCUMENT, JSON.writeValueAsString(served) + "\n", StandardCharsets.UTF_8);
            System.out.println("wrote " + DOCUMENT.toAbsolutePath().normalize() + " ("
                    + served.get("paths").size() + " paths)");
        }
        if (!Files.isRegularFile(DOCUMENT)) {
            fail(DOCUMENT.toAbsolutePath().normalize() + " is missing; generate it with\n  " + REGENERATE);
        }
        JsonNode committed = JSON.readTree(Files.readString(DOCUMENT, StandardCharsets.UTF_8));
        String difference = firstDifference("", committed, served);
        if (difference != null) {
            fail("docs/openapi.json is out of date with what the service serves at " + API_DOCS + " ("
                    + difference + "). It is generated from the controllers and ApiDocs: do not edit it by hand; "
                    + "regenerate it with\n  " + REGENERATE);
        }
    }

    @Test
    void everyApiOperationTakesABearerKeyAndNothingElseDoes() {
        JsonNode scheme = served.at("/components/securitySchemes/apiKey");
        assertThat(scheme.path("type").asString()).isEqualTo("http");
        assertThat(scheme.path("scheme").asString()).isEqualTo("bearer");
        assertThat(served.has("security")).as("a document-wide requirement would cover public paths").isFalse();
        List<String> wrong = new ArrayList<>();
        int secured = 0;
        for (String path : served.get("paths").propertyNames()) {
            JsonNode item = served.get("paths").get(path);
            for (String method : item.propertyNames()) {
                JsonNode security = item.get(method).path("security");
                boolean bearer = security.isArray() && security.size() == 1 && security.get(0).has("apiKey");
                if (path.startsWith("/api/v1/") != bearer) {
                    wrong.add(method.toUpperCase() + " " + path + " security " + security);
                }
                secured += bearer ? 1 : 0;
            }
        }
        // Health probes, /problems/ and the document itself are public: were actuator endpoints ever
        // shown here, the rule above would hold them to that as well.
        assertThat(wrong).isEmpty();
        assertThat(secured).isGreaterThan(20);
    }

    @Test
    void errorsAreProblemsWithEveryStableCode() {
        JsonNode codes = served.at("/components/schemas/Problem/properties/code/enum");
        List<String> listed = new ArrayList<>();
        codes.forEach(code -> listed.add(code.asString()));
        assertThat(listed).containsExactly(Arrays.stream(ProblemCode.values()).map(Enum::name).toArray(String[]::new));
        JsonNode reserve = served.at("/paths/~1api~1v1~1reservations/post/responses");
        assertThat(reserve.propertyNames()).contains("200", "201", "404", "409", "423", "429", "503", "default");
        assertThat(reserve.at("/409/content/application~1problem+json/schema/$ref").asString())
                .isEqualTo("#/components/schemas/Problem");
    }

    @Test
    void theRetryContractIsDocumented() {
        assertThat(served.at("/info/description").asString()).contains("503 UNAVAILABLE", "503 OUTCOME_UNKNOWN",
                "Retry-After", "**same** order id", "Never retry under a new order id");
        JsonNode reserve = served.at("/paths/~1api~1v1~1reservations/post/responses");
        for (String status : List.of("429", "503")) {
            assertThat(reserve.at("/" + status + "/headers/Retry-After/$ref").asString()).as(status)
                    .isEqualTo("#/components/headers/Retry-After");
        }
        assertThat(reserve.at("/503/description").asString()).contains("UNAVAILABLE", "OUTCOME_UNKNOWN",
                "same id");
    }

    /** The document with every object's fields in name order, so the committed file diffs cleanly. */
    static JsonNode sorted(JsonNode node) {
        if (node.isObject()) {
            ObjectNode copy = JSON.createObjectNode();
            for (String name : new TreeSet<>(node.propertyNames())) {
                copy.set(name, sorted(node.get(name)));
            }
            return copy;
        }
        if (node.isArray()) {
            ArrayNode copy = JSON.createArrayNode();
            node.forEach(element -> copy.add(sorted(element)));
            return copy;
        }
        return node;
    }

    /** The JSON pointer of the first place the two differ, and what each has there; null when equal. */
    static String firstDifference(String pointer, JsonNode committed, JsonNode served) {
        if (committed.equals(served)) {
            return null;
        }
        if (committed.isObject() && served.isObject()) {
            for (String name : new TreeSet<>(committed.propertyNames())) {
                if (!served.has(name)) {
                    return "the file has " + pointer + "/" + escaped(name) + ", the service does not";
                }
                String below = firstDifference(pointer + "/" + escaped(name), committed.get(name), served.get(name));
                if (below != null) {
                    return below;
                }
            }
            for (String name : new TreeSet<>(served.propertyNames())) {
                if (!committed.has(name)) {
                    return "the service serves " + pointer + "/" + escaped(name) + ", the file does not";
                }
            }
        }
        if (committed.isArray() && served.isArray() && committed.size() == served.size()) {
            Iterator<JsonNode> left = committed.iterator();
            Iterator<JsonNode> right = served.iterator();
            for (int i = 0; left.hasNext(); i++) {
                String below = firstDifference(pointer + "/" + i, left.next(), right.next());
                if (below != null) {
                    return below;
                }
            }
        }
        return "at " + (pointer.isEmpty() ? "/" : pointer) + " the file has " + abbreviated(committed)
                + ", the service serves " + abbreviated(served);
    }

    /** A field name as a JSON pointer step: paths such as /api/v1/skus become ~1api~1v1~1skus. */
    private static String escaped(String name) {
        return name.replace("~", "~0").replace("/", "~1");
    }

    private static String abbreviated(JsonNode node) {
        String text = node.toString();
        return text.length() <= 200 ? text : text.substring(0, 200) + "…";
    }
}
