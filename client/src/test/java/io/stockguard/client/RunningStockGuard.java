package io.stockguard.client;

import io.stockguard.testkit.ServiceProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * StockGuard's embedded tier as a real process: the runnable jar this build packaged, with its own
 * PostgreSQL under a fresh data directory in {@code target/}, started by the testkit's launcher as
 * the service's and the chaos suite's tests start it, so that the client meets exactly what an
 * order service would.
 */
final class RunningStockGuard implements AutoCloseable {

    static final String API_KEY = "client-it-order-service-key-0123456789";
    static final String ADMIN_KEY = "client-it-admin-key-0123456789";
    private static final Path JAR = Path.of("..", "service", "target", "stockguard-exec.jar");
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final ServiceProcess process;

    private RunningStockGuard(ServiceProcess process) {
        this.process = process;
    }

    static RunningStockGuard start() {
        Path target = Path.of("target").toAbsolutePath();
        ServiceProcess process = ServiceProcess.start(JAR, Map.of(
                // Relative to the instance's home, a fresh directory: the data starts empty.
                "stockguard.data-dir", "data",
                "stockguard.security.api-keys", "order-service:" + API_KEY,
                "stockguard.security.admin-keys", "ops:" + ADMIN_KEY), target);
        return new RunningStockGuard(process);
    }

    String baseUrl() {
        return process.baseUrl();
    }

    /** Sends one request with the order-service key, straight to the service; the answer's status and body. */
    HttpResponse<String> send(String method, String path, String json) {
        try (HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl() + path))
                    .timeout(REQUEST_TIMEOUT).header("Authorization", "Bearer " + API_KEY)
                    .method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofString(json));
            if (json != null) {
                request.header("Content-Type", "application/json");
            }
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Stops the service as an operator would; one that does not stop in time is killed with its PostgreSQL. */
    @Override
    public void close() {
        process.close();
    }
}
