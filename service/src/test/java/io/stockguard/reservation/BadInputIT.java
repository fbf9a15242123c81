package io.stockguard.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.testing.Ids;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testing.StockGuardClient.Response;
import io.stockguard.testkit.TestDatabase;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input gets a 4xx with a stable code and loses nothing: after each case the SKU's stock and
 * the journal are exactly as before, and no response carries a stack trace.
 */
class BadInputIT {

    private static final String SKU = Ids.sku("bad-input");
    private static RunningService service;

    @BeforeAll
    static void createSku() {
        service = RunningService.shared(TestDatabase.Kind.POSTGRESQL);
        assertThat(service.client().putSku(SKU, 50).status()).isEqualTo(201);
        assertThat(service.client().reserve(Ids.order("existing"), new StockGuardClient.Line(SKU, 1)).status())
                .isEqualTo(201);
    }

    static Stream<Arguments> cases() {
        String lines10k = IntStream.range(0, 10_000).mapToObj(i -> "{\"skuId\":\"" + SKU + "\",\"qty\":1}")
                .collect(Collectors.joining(",", "[", "]"));
        String lines101 = IntStream.range(0, 101).mapToObj(i -> "{\"skuId\":\"S" + i + "\",\"qty\":1}")
                .collect(Collectors.joining(",", "[", "]"));
        return Stream.of(
                reserve("negative qty", line(SKU, "-1"), 400, "INVALID_REQUEST"),
                reserve("zero qty", line(SKU, "0"), 400, "INVALID_REQUEST"),
                reserve("huge qty", line(SKU, "1000000001"), 400, "INVALID_REQUEST"),
                reserve("qty beyond a long", line(SKU, "123456789012345678901234567890"), 400, "INVALID_REQUEST"),
                reserve("float qty", line(SKU, "1.5"), 400, "INVALID_REQUEST"),
                reserve("string qty", line(SKU, "\"2\""), 400, "INVALID_REQUEST"),
                reserve("boolean qty", line(SKU, "true"), 400, "INVALID_REQUEST"),
                reserve("missing qty", "[{\"skuId\":\"" + SKU + "\"}]", 400, "INVALID_REQUEST"),
                reserve("null line", "[null]", 400, "INVALID_REQUEST"),
                reserve("empty lines", "[]", 400, "INVALID_REQUEST"),
                reserve("duplicate lines", "[" + line1(SKU, 1) + "," + line1(SKU, 2) + "]", 400, "INVALID_REQUEST"),
                reserve("101 lines", lines101, 400, "INVALID_REQUEST"),
                raw("10k lines", "POST", "/api/v1/reservations",
                        "{\"orderId\":\"" + Ids.order("big") + "\",\"lines\":" + lines10k + "}", 413,
                        "PAYLOAD_TOO_LARGE"),
                raw("empty order id", "POST", "/api/v1/reservations", order("\"\"", line(SKU, "1")), 400,
                        "INVALID_REQUEST"),
                raw("huge order id", "POST", "/api/v1/reservations", order("\"" + "x".repeat(65) + "\"",
                        line(SKU, "1")), 400, "INVALID_REQUEST"),
                raw("SQL-ish order id", "POST", "/api/v1/reservations",
                        order("\"o'; DROP TABLE stock_bucket; --\"", line(SKU, "1")), 400, "INVALID_REQUEST"),
                raw("numeric order id", "POST", "/api/v1/reservations", order("42", line(SKU, "1")), 400,
                        "INVALID_REQUEST"),
                reserve("SQL-ish SKU id", "[{\"skuId\":\"x' OR '1'='1\",\"qty\":1}]", 400, "INVALID_REQUEST"),
                reserve("unknown SKU", line("no-such-sku-" + SKU, "1"), 404, "UNKNOWN_SKU"),
                raw("negative TTL", "POST", "/api/v1/reservations", "{\"orderId\":\"" + Ids.order("ttl")
                        + "\",\"lines\":" + line(SKU, "1") + ",\"ttlSeconds\":-5}", 400, "INVALID_REQUEST"),
                raw("TTL beyond a week", "POST", "/api/v1/reservations", "{\"orderId\":\"" + Ids.order("ttl")
                        + "\",\"lines\":" + line(SKU, "1") + ",\"ttlSeconds\":999999999}", 400, "INVALID_REQUEST"),
                raw("unknown field", "POST", "/api/v1/reservations", "{\"orderId\":\"" + Ids.order("typo")
                        + "\",\"lines\":" + line(SKU, "1") + ",\"ttlSecond\":5}", 400, "INVALID_REQUEST"),
                raw("malformed JSON", "POST", "/api/v1/reservations", "{\"orderId\": \"x\", \"lines\": [", 400,
                        "INVALID_REQUEST"),
                raw("trailing garbage", "POST", "/api/v1/reservations", order("\"" + Ids.order("g") + "\"",
                        line(SKU, "1")) + " {}", 400, "INVALID_REQUEST"),
                raw("empty body", "POST", "/api/v1/reservations", "", 400, "INVALID_REQUEST"),
                raw("JSON array body", "POST", "/api/v1/reservations", "[]", 400, "INVALID_REQUEST"),
                Arguments.of("wrong content type", "POST", "/api/v1/reservations",
                        order("\"" + Ids.order("ct") + "\"", line(SKU, "1")), "text/plain", true, 415,
                        "UNSUPPORTED_MEDIA_TYPE"),
                Arguments.of("missing key", "POST", "/api/v1/reservations",
                        order("\"" + Ids.order("nokey") + "\"", line(SKU, "1")), "application/json", false, 401,
                        "UNAUTHENTICATED"),
                raw("negative total", "PUT", "/api/v1/skus/" + SKU, "{\"total\":-1}", 400, "INVALID_REQUEST"),
                raw("total beyond the limit", "PUT", "/api/v1/skus/" + SKU, "{\"total\":1000000000001}", 400,
                        "INVALID_REQUEST"),
                raw("changed bucket count", "PUT", "/api/v1/skus/" + SKU, "{\"total\":50,\"buckets\":4}", 400,
                        "INVALID_REQUEST"),
                raw("zero buckets", "PUT", "/api/v1/skus/" + Ids.sku("zero-buckets"), "{\"total\":5,\"buckets\":0}",
                        400, "INVALID_REQUEST"),
                raw("missing total", "PUT", "/api/v1/skus/" + SKU, "{}", 400, "INVALID_REQUEST"),
                raw("negative restock", "POST", "/api/v1/skus/" + SKU + "/restock", "{\"qty\":-3}", 400,
                        "INVALID_REQUEST"),
                raw("SKU id too long in path", "GET", "/api/v1/skus/" + "s".repeat(65), null, 400,
                        "INVALID_REQUEST"),
                raw("bad characters in path", "GET", "/api/v1/skus/a%20b", null, 400, "INVALID_REQUEST"),
                raw("SKU id too long in a product page's path", "GET", "/api/v1/skus/" + "s".repeat(65)
                        + "/availability", null, 400, "INVALID_REQUEST"),
                raw("unknown route", "POST", "/api/v1/reservationz", "{}", 404, "NOT_FOUND"),
                raw("wrong method", "DELETE", "/api/v1/reservations", null, 405, "METHOD_NOT_ALLOWED"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void badInputIsRefusedWithACodeAndChangesNothing(String name, String method, String path, String body,
            String contentType, boolean withKey, int status, String code) {
        String stockBefore = service.client().sku(SKU).raw().body();
        long eventsBefore = journalSize();

        StockGuardClient client = withKey ? service.client() : service.anonymous();
        Response response = client.sendRaw(method, path, body, contentType);

        assertThat(response.status()).as(name + ": " + response.raw().body()).isEqualTo(status);
        assertThat(response.code()).as(name).isEqualTo(code);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.raw().body()).doesNotContain("Exception", "\tat ", "org.springframework", "SQL");
        assertThat(service.client().sku(SKU).raw().body()).as("stock after " + name).isEqualTo(stockBefore);
        assertThat(journalSize()).as("journal after " + name).isEqualTo(eventsBefore);
    }

    private static long journalSize() {
        return service.jdbc().queryForObject("SELECT COUNT(*) FROM stock_event", Long.class);
    }

    private static Arguments reserve(String name, String lines, int status, String code) {
        return raw(name, "POST", "/api/v1/reservations", order("\"" + Ids.order("bad") + "\"", lines), status, code);
    }

    private static Arguments raw(String name, String method, String path, String body, int status, String code) {
        return Arguments.of(name, method, path, body, body == null ? null : "application/json", true, status, code);
    }

    private static String order(String orderIdJson, String lines) {
        return "{\"orderId\":" + orderIdJson + ",\"lines\":" + lines + "}";
    }

    private static String line(String sku, String qtyJson) {
        return "[{\"skuId\":\"" + sku + "\",\"qty\":" + qtyJson + "}]";
    }

    private static String line1(String sku, int qty) {
        return "{\"skuId\":\"" + sku + "\",\"qty\":" + qty + "}";
    }
}
