package io.stockguard.platform.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.stockguard.platform.TraceId;
import io.stockguard.testing.ServiceJar;
import io.stockguard.testkit.ServiceProcess;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testkit.TestDatabase;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Spring Boot's structured logging works on the service as shipped (the runnable jar, its own
 * process): with {@code logging.structured.format.console=ecs} every line the service logs is one
 * JSON object, nothing in its logging configuration puts the text pattern back, and a line logged
 * while serving a request carries that request's trace id as the field {@code traceId}. The log
 * file gets the other common format, {@code logstash}, in the same run.
 */
class StructuredLogsIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** A line of the default text pattern: ISO time, then the level. */
    private static final Pattern TEXT_LINE = Pattern.compile("^\\d{4}-\\d{2}-\\d{2}T\\S+\\s+(TRACE|DEBUG|INFO|WARN|ERROR)\\s");
    private static final Duration LINES_WAIT_MAX = Duration.ofSeconds(10);

    @Test
    void withEcsOnTheConsoleAndLogstashInTheFileARequestsLinesAreJsonCarryingItsTraceId() throws IOException {
        Path file = Files.createTempDirectory("stockguard-logs-").resolve("stockguard.log");
        try (ServiceProcess service = ServiceJar.start(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL), Map.of(
                "logging.structured.format.console", "ecs",
                "logging.structured.format.file", "logstash",
                "logging.file.name", file.toString(),
                // The dispatcher logs each request it serves at DEBUG, inside the trace filter: a
                // line that must carry the request's trace id.
                "logging.level.org.springframework.web.servlet.DispatcherServlet", "debug"))) {
            TraceId trace = TraceId.random();
            HttpRequest request = HttpRequest.newBuilder(URI.create(service.baseUrl() + "/actuator/health"))
                    .header("traceparent", "00-" + trace.value() + "-00f067aa0ba902b7-01").GET().build();
            assertThat(new StockGuardClient(service.baseUrl(), null).execute(request).status()).isEqualTo(200);

            await().atMost(LINES_WAIT_MAX).until(() -> linesWith(service.output(), trace).size() >= 2
                    && linesWith(Files.readString(file), trace).size() >= 2);

            String console = service.output();
            assertThat(console.lines().filter(line -> TEXT_LINE.matcher(line).find()))
                    .as("console lines in the text pattern").isEmpty();
            JsonNode started = console.lines().filter(line -> line.contains("Started StockGuardApplication"))
                    .map(StructuredLogsIT::json).findFirst().orElseThrow();
            assertThat(started.get("@timestamp")).isNotNull();
            assertThat(started.get("service").get("name").asString()).isEqualTo("stockguard");
            assertThat(started.get("traceId")).as("a line logged outside any request").isNull();
            assertRequestLines(linesWith(console, trace), trace);

            String logFile = Files.readString(file);
            assertThat(logFile.lines().filter(line -> !line.isBlank()).map(StructuredLogsIT::json)
                    .filter(line -> line.get("@version") == null)).as("log file lines not in the logstash format")
                    .isEmpty();
            assertRequestLines(linesWith(logFile, trace), trace);
        }
    }

    /** Every line mentioning the request's trace id is JSON, names it as traceId, and one is the request. */
    private static void assertRequestLines(List<String> lines, TraceId trace) {
        List<JsonNode> parsed = lines.stream().map(StructuredLogsIT::json).toList();
        assertThat(parsed).allSatisfy(line -> {
            assertThat(line.get("traceId").asString()).isEqualTo(trace.value());
            assertThat(line.get("message").asString()).isNotBlank();
        });
        assertThat(parsed).anySatisfy(line -> assertThat(line.get("message").asString())
                .contains("/actuator/health"));
    }

    private static List<String> linesWith(String output, TraceId trace) {
        return output.lines().filter(line -> line.contains(trace.value())).toList();
    }

    private static JsonNode json(String line) {
        JsonNode node = JSON.readTree(line);
        assertThat(node.isObject()).as("a JSON object: %s", line).isTrue();
        return node;
    }
}
