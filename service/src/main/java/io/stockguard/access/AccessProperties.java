package io.stockguard.access;

import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Keys of callers ({@code stockguard.security.*}). Each entry is {@code secret} or
 * {@code name:secret}; the name (or, without one, a fingerprint of the secret) is what the audit
 * log records as the actor, so secrets never reach a log or a table.
 *
 * @param apiKeys keys of order services: reservation and stock API (env
 *     {@code STOCKGUARD_SECURITY_API_KEYS}, comma-separated)
 * @param adminKeys keys of operators and their scripts: everything, including {@code /api/v1/admin}
 *     (env {@code STOCKGUARD_SECURITY_ADMIN_KEYS}, comma-separated)
 * @param metricsKeys keys of metrics scrapers: {@code /actuator/prometheus} and nothing else, so a
 *     scraper holds no key that can sell (env {@code STOCKGUARD_SECURITY_METRICS_KEYS}, comma-separated)
 */
@ConfigurationProperties("stockguard.security")
public record AccessProperties(@DefaultValue List<String> apiKeys, @DefaultValue List<String> adminKeys,
        @DefaultValue List<String> metricsKeys) {

    /** Short keys can be guessed; 16 characters of a random key are ~96 bits. */
    public static final int SECRET_LENGTH_MIN = 16;

    public AccessProperties {
        apiKeys = List.copyOf(apiKeys);
        adminKeys = List.copyOf(adminKeys);
        metricsKeys = List.copyOf(metricsKeys);
        List<String> problems = new ArrayList<>();
        if (apiKeys.isEmpty() && adminKeys.isEmpty()) {
            problems.add("no keys are configured, so no caller could be served: set stockguard.security.api-keys "
                    + "and stockguard.security.admin-keys (env STOCKGUARD_SECURITY_API_KEYS, "
                    + "STOCKGUARD_SECURITY_ADMIN_KEYS)");
        }
        checkAll("api-keys", apiKeys, problems);
        checkAll("admin-keys", adminKeys, problems);
        checkAll("metrics-keys", metricsKeys, problems);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
    }

    private static void checkAll(String property, List<String> keys, List<String> problems) {
        for (int i = 0; i < keys.size(); i++) {
            String problem = ApiKey.problemWith(keys.get(i));
            if (problem != null) {
                problems.add("stockguard.security." + property + "[" + i + "] " + problem);
            }
        }
    }
}
