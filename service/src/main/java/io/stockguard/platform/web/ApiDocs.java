package io.stockguard.platform.web;

import io.stockguard.platform.ProblemCode;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.servers.Server;
import io.swagger.v3.oas.models.tags.Tag;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What the generated OpenAPI document says beyond the controllers' own annotations: the problem
 * body every error carries (with its stable codes, taken from {@link ProblemCode} so the two never
 * drift), the {@code Retry-After} header and the retry contract of {@code docs/api.md}. The document
 * is committed as {@code docs/openapi.json}; {@code OpenApiDocumentIT} fails when they differ.
 */
@Configuration(proxyBeanMethods = false)
class ApiDocs {

    static final String API_PREFIX = "/api/v1/";
    static final String PROBLEM_SCHEMA = "Problem";
    static final String FIELD_VIOLATION_SCHEMA = "FieldViolation";
    static final String RETRY_AFTER = "Retry-After";
    static final String PROBLEM_JSON = "application/problem+json";

    /** The contract of docs/api.md ("Idempotency and retries"), where a client generator reads it. */
    static final String RETRY_CONTRACT = """
            Every change is idempotent by its order id (restocks and adjustments by their request id): a \
            retry gets the original outcome and never applies the change twice. A repeated reservation \
            answers 200 with `replayed: true` instead of 201.

            * `503 UNAVAILABLE`: nothing was changed, for certain.
            * `503 OUTCOME_UNKNOWN`: a store failed while committing; the change may or may not have been applied.
            * no answer at all (the connection failed or timed out): as `OUTCOME_UNKNOWN`.

            After any of these, wait the `Retry-After` delay and send the same request again under the \
            **same** order id (or request id) until a definite answer. Never retry under a new order id: \
            the first attempt may hold stock, and a second id would hold it twice. `429 THROTTLED`: wait \
            `Retry-After`, then retry with the same id. Any other 4xx is a definite refusal: nothing \
            changed, do not retry the same request.""";

    private static final String DESCRIPTION = """
            Inventory reservations that never oversell. Order services reserve, confirm and cancel \
            stock under `/api/v1`; operators use `/api/v1/admin`.

            **Authentication.** Every `/api/v1` call carries a key as `Authorization: Bearer <key>`. \
            Health probes (`/actuator/health`), this document and the problem descriptions under \
            `/problems/` are public.

            **Errors** are RFC 9457 `application/problem+json` bodies with a stable `code` (schema \
            `Problem`); switch on `code`, never on the title or detail. Each code is described at its \
            `type` URI.

            **Retries.** %s""".formatted(RETRY_CONTRACT);

    /** Other (code-specific) fields a problem may carry, documented so clients know they exist. */
    private static final String EXTRA_FIELDS = "Code-specific fields may follow: `skuId`, `requested` and "
            + "`available` (INSUFFICIENT_STOCK), `retryAfterSeconds` (THROTTLED), `errors` (INVALID_REQUEST).";

    @Bean
    OpenAPI stockGuardOpenApi() {
        return new OpenAPI()
                .info(new Info().title("StockGuard API").version("v1").description(DESCRIPTION)
                        .license(new License().name("Apache License 2.0").identifier("Apache-2.0")))
                // Relative to where the document is served, so the document is the same on every
                // host and port (and the committed copy can be compared with a running instance's).
                .servers(List.of(new Server().url("/").description("the instance serving this document")))
                .components(new Components()
                        .addHeaders(RETRY_AFTER, new Header()
                                .description("When to retry: a number of seconds (this service always sends whole "
                                        + "seconds, at least 1); clients should also accept an HTTP date")
                                .schema(typed("string"))));
    }

    /**
     * Every error response of the API is a problem body; every call may meet an unavailable store
     * (503, with the retry contract); 429 and 503 carry {@code Retry-After}. Tags are sorted, so
     * the document does not change with the order in which controllers were found.
     */
    @Bean
    OpenApiCustomizer problemResponses() {
        return openApi -> {
            // Added here rather than on the OpenAPI bean: springdoc replaces the bean's schemas
            // with the ones it derives from the controllers.
            openApi.getComponents().addSchemas(PROBLEM_SCHEMA, problemSchema())
                    .addSchemas(FIELD_VIOLATION_SCHEMA, fieldViolationSchema());
            if (openApi.getPaths() != null) {
                openApi.getPaths().forEach((path, item) -> {
                    if (path.startsWith(API_PREFIX)) {
                        item.readOperations().forEach(operation -> describeErrors(path, operation));
                    }
                });
            }
            if (openApi.getTags() != null) {
                openApi.setTags(openApi.getTags().stream().sorted(Comparator.comparing(Tag::getName)).toList());
            }
        };
    }

    private static void describeErrors(String path, Operation operation) {
        ApiResponses responses = operation.getResponses() == null ? new ApiResponses() : operation.getResponses();
        responses.putIfAbsent("400", new ApiResponse().description(
                "INVALID_REQUEST: the body or a parameter breaks a documented limit; `errors` lists every field. "
                        + "Nothing changed."));
        responses.putIfAbsent("401", new ApiResponse().description(
                "UNAUTHENTICATED: no valid key (send `Authorization: Bearer <key>`)"));
        if (path.startsWith(API_PREFIX + "admin")) {
            responses.putIfAbsent("403", new ApiResponse().description(
                    "FORBIDDEN: this caller may not use this endpoint (order-service keys never may)"));
        }
        responses.putIfAbsent("503", new ApiResponse().description(
                "UNAVAILABLE (nothing was changed) or OUTCOME_UNKNOWN (the change may have been applied). "
                        + "Retry the same request with the same id after `Retry-After`; see the retry contract "
                        + "in the API's description."));
        responses.putIfAbsent("default", new ApiResponse().description(
                "Any other refusal, as a problem body with a stable `code`"));
        responses.forEach((status, response) -> {
            if (!isError(status)) {
                return;
            }
            // Springdoc fills an annotated response without content with the method's return
            // type; an error is never that, it is always a problem body.
            response.setContent(new Content().addMediaType(PROBLEM_JSON,
                    new MediaType().schema(new Schema<>().$ref("#/components/schemas/" + PROBLEM_SCHEMA))));
            if (status.equals("429") || status.equals("503")) {
                response.addHeaderObject(RETRY_AFTER, new Header().$ref("#/components/headers/" + RETRY_AFTER));
            }
        });
        operation.setResponses(responses);
    }

    private static boolean isError(String status) {
        return status.equals("default") || status.startsWith("4") || status.startsWith("5");
    }

    /** The body {@code Problems.of} builds, with every code of {@link ProblemCode}. */
    private static Schema<?> problemSchema() {
        Map<String, Schema> properties = new LinkedHashMap<>();
        properties.put("type", typed("string").format("uri-reference")
                .description("where the code is described, e.g. /problems/insufficient-stock"));
        properties.put("title", typed("string").description("the code's title; for people, not for switching on"));
        properties.put("status", typed("integer").format("int32").description("the HTTP status"));
        properties.put("detail", typed("string").description("what happened in this case; for people"));
        properties.put("instance", typed("string").format("uri-reference").description("the path requested"));
        Schema<String> code = typed("string");
        code.setEnum(Arrays.stream(ProblemCode.values()).map(Enum::name).toList());
        properties.put("code", code.description("the stable code clients switch on; never renamed once published"));
        properties.put("traceId", typed("string").description("the request's trace id; quote it when reporting"));
        properties.put("errors", typed("array").items(new Schema<>().$ref("#/components/schemas/"
                + FIELD_VIOLATION_SCHEMA)).description("INVALID_REQUEST only: every broken rule"));
        Schema<Object> problem = typed("object");
        problem.setProperties(properties);
        problem.setRequired(List.of("type", "title", "status", "code"));
        problem.setAdditionalProperties(true);
        return problem.description("An RFC 9457 problem with a stable code. " + EXTRA_FIELDS);
    }

    private static Schema<?> fieldViolationSchema() {
        Map<String, Schema> properties = new LinkedHashMap<>();
        properties.put("field", typed("string").description("the field or parameter, e.g. lines[0].qty"));
        properties.put("message", typed("string").description("the rule it breaks"));
        Schema<Object> violation = typed("object");
        violation.setProperties(properties);
        violation.setRequired(List.of("field", "message"));
        return violation.description("One broken rule on one field of the request");
    }

    /** A schema of one JSON type, written the way both OpenAPI 3.0 and 3.1 serializers read it. */
    @SuppressWarnings("unchecked")
    private static <T> Schema<T> typed(String type) {
        return (Schema<T>) new Schema<T>().type(type).types(Set.of(type));
    }
}
