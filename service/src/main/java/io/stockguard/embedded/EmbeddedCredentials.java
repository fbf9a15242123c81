package io.stockguard.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Properties;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.StringUtils;

/**
 * Gives an embedded trial keys without any setup: when the service runs embedded and no keys are
 * configured, it reads them from {@code <data-dir>/credentials.properties}, generating that file
 * (readable by its owner only) on the first start. Configured keys always win; with an external
 * database nothing is generated, so production never runs on keys nobody chose.
 */
public class EmbeddedCredentials implements EnvironmentPostProcessor, Ordered {

    static final String FILE_NAME = "credentials.properties";
    static final String GENERATED_FLAG = "stockguard.embedded.credentials-generated";
    private static final String API_KEY = "stockguard.security.api-keys";
    private static final String ADMIN_KEY = "stockguard.security.admin-keys";
    private static final SecureRandom RANDOM = new SecureRandom();

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (!EmbeddedMode.isEmbedded(environment) || StringUtils.hasText(environment.getProperty(API_KEY))
                || StringUtils.hasText(environment.getProperty(ADMIN_KEY))) {
            return;
        }
        Path file = EmbeddedMode.dataDirectory(environment).resolve(FILE_NAME);
        boolean generated = !Files.exists(file);
        Properties keys = generated ? generate(file) : read(file);
        environment.getPropertySources().addLast(new MapPropertySource("stockguard-embedded-credentials", Map.of(
                API_KEY, keys.getProperty(API_KEY), ADMIN_KEY, keys.getProperty(ADMIN_KEY),
                GENERATED_FLAG, Boolean.toString(generated))));
    }

    private static Properties generate(Path file) {
        Properties keys = new Properties();
        keys.setProperty(API_KEY, "order-service:" + randomSecret());
        keys.setProperty(ADMIN_KEY, "admin:" + randomSecret());
        try {
            Files.createDirectories(file.getParent());
            Files.createFile(file);
            try {
                Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException e) {
                // Not a POSIX file system (Windows): the file keeps the directory's permissions.
            }
            // Written by hand rather than Properties.store, which would escape the ':' in each
            // value and make the file harder to read and to use from a shell.
            Files.writeString(file, String.join("\n",
                    "# StockGuard embedded trial keys, generated on first start.",
                    "# Send as 'Authorization: Bearer <key>', the part after 'name:'. Delete this file to",
                    "# generate new keys; configured keys (STOCKGUARD_SECURITY_*) take precedence.",
                    API_KEY + "=" + keys.getProperty(API_KEY),
                    ADMIN_KEY + "=" + keys.getProperty(ADMIN_KEY), ""));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write generated keys to " + file, e);
        }
        return keys;
    }

    private static Properties read(Path file) {
        Properties keys = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            keys.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read keys from " + file, e);
        }
        if (!StringUtils.hasText(keys.getProperty(API_KEY)) || !StringUtils.hasText(keys.getProperty(ADMIN_KEY))) {
            throw new IllegalStateException(file + " lacks " + API_KEY + " or " + ADMIN_KEY
                    + "; delete it to generate new keys");
        }
        return keys;
    }

    /** 32 random bytes, URL-safe Base64: 256 bits, no characters that need quoting in a shell. */
    private static String randomSecret() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
