package io.stockguard.testing;

import io.stockguard.testkit.ServiceProcess;
import io.stockguard.testkit.TestDatabase;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The runnable jar this build packaged, started as its own process by the testkit's launcher with
 * the keys {@link RunningService}'s clients use, so that a test can kill it without warning
 * ({@code kill -9}).
 */
public final class ServiceJar {

    private static final Path JAR = Path.of("target", "stockguard-exec.jar");
    /** Each instance's home (its logs) is a fresh directory under this one. */
    private static final Path HOMES = Path.of("target", "service-processes");

    private ServiceJar() {
    }

    /** Starts an instance on the database with these settings (as RunningService would) and waits until it is healthy. */
    public static ServiceProcess start(TestDatabase database, Map<String, String> settings) {
        Map<String, String> properties = new HashMap<>();
        properties.put("spring.datasource.url", database.jdbcUrl());
        properties.put("spring.datasource.username", database.username());
        properties.put("spring.datasource.password", database.password());
        properties.putAll(settings);
        return launch(properties);
    }

    /**
     * Starts an instance of the embedded tier (its own PostgreSQL under {@code dataDirectory}) and
     * waits until it is healthy.
     */
    public static ServiceProcess startEmbedded(Path dataDirectory, Map<String, String> settings) {
        Map<String, String> properties = new HashMap<>(settings);
        properties.put("stockguard.data-dir", dataDirectory.toAbsolutePath().toString());
        return launch(properties);
    }

    /** A client of the instance with the order-service key. */
    public static StockGuardClient client(ServiceProcess process) {
        return new StockGuardClient(process.baseUrl(), RunningService.API_KEY);
    }

    private static ServiceProcess launch(Map<String, String> settings) {
        Map<String, String> properties = new HashMap<>();
        properties.put("stockguard.security.api-keys", "order-service:" + RunningService.API_KEY);
        properties.put("stockguard.security.admin-keys", "ops:" + RunningService.ADMIN_KEY);
        properties.putAll(settings);
        return ServiceProcess.start(JAR, properties, HOMES);
    }
}
