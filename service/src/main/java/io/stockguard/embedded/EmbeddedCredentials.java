package io.stockguard.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.util.StringUtils;

/**
 * Gives an embedded trial credentials without any setup: when the service runs embedded and no
 * keys (or no console people) are configured, it reads them from
 * {@code <data-dir>/credentials.properties}, generating what is missing there (the file readable by
 * its owner only) and printing it on that start. Configured keys and people always win; with an
 * external database nothing is generated, so production never runs on credentials nobody chose.
 */
public class EmbeddedCredentials implements EnvironmentPostProcessor, Ordered {

    static final String FILE_NAME = "credentials.properties";
    static final String GENERATED_FLAG = "stockguard.embedded.credentials-generated";
    static final String PASSWORD_GENERATED_FLAG = "stockguard.embedded.console-password-generated";
    /** The console password as the file keeps it: readable, like the keys, by the file's owner only. */
    static final String CONSOLE_PASSWORD = "stockguard.embedded.console-password";
    static final String CONSOLE_USER = "admin";
    private static final String API_KEY = "stockguard.security.api-keys";
    private static final String ADMIN_KEY = "stockguard.security.admin-keys";
    private static final String PEOPLE = "stockguard.security.people.users";
    private static final SecureRandom RANDOM = new SecureRandom();

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        boolean keysConfigured = StringUtils.hasText(environment.getProperty(API_KEY))
                || StringUtils.hasText(environment.getProperty(ADMIN_KEY));
        boolean peopleConfigured = StringUtils.hasText(environment.getProperty(PEOPLE))
                || StringUtils.hasText(environment.getProperty(PEOPLE + "[0]"));
        if (!EmbeddedMode.isEmbedded(environment) || (keysConfigured && peopleConfigured)) {
            return;
        }
        Path file = EmbeddedMode.dataDirectory(environment).resolve(FILE_NAME);
        Properties stored = Files.exists(file) ? read(file) : new Properties();
        List<String> newLines = new ArrayList<>();
        Map<String, Object> credentials = new HashMap<>();
        if (!keysConfigured) {
            boolean generate = !StringUtils.hasText(stored.getProperty(API_KEY))
                    || !StringUtils.hasText(stored.getProperty(ADMIN_KEY));
            if (generate) {
                stored.setProperty(API_KEY, "order-service:" + randomSecret());
                stored.setProperty(ADMIN_KEY, "admin:" + randomSecret());
                newLines.add(API_KEY + "=" + stored.getProperty(API_KEY));
                newLines.add(ADMIN_KEY + "=" + stored.getProperty(ADMIN_KEY));
            }
            credentials.put(API_KEY, stored.getProperty(API_KEY));
            credentials.put(ADMIN_KEY, stored.getProperty(ADMIN_KEY));
            credentials.put(GENERATED_FLAG, Boolean.toString(generate));
        }
        if (!peopleConfigured) {
            boolean generate = !StringUtils.hasText(stored.getProperty(CONSOLE_PASSWORD));
            if (generate) {
                stored.setProperty(CONSOLE_PASSWORD, randomSecret().substring(0, 24));
                newLines.add(CONSOLE_PASSWORD + "=" + stored.getProperty(CONSOLE_PASSWORD));
            }
            // Hashed on every start: the service itself only ever holds the hash.
            credentials.put(PEOPLE, CONSOLE_USER + ":ADMIN:{bcrypt}"
                    + new BCryptPasswordEncoder().encode(stored.getProperty(CONSOLE_PASSWORD)));
            credentials.put(PASSWORD_GENERATED_FLAG, Boolean.toString(generate));
            if (generate) {
                // Only so that the start-up banner can print it this once, as it does new keys.
                credentials.put(CONSOLE_PASSWORD, stored.getProperty(CONSOLE_PASSWORD));
            }
        }
        if (!newLines.isEmpty()) {
            write(file, newLines);
        }
        environment.getPropertySources().addLast(new MapPropertySource("stockguard-embedded-credentials",
                credentials));
    }

    /** Creates the file (owner-only) or appends to it: a later line wins when the file is read. */
    private static void write(Path file, List<String> lines) {
        try {
            if (!Files.exists(file)) {
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
                        "# StockGuard embedded trial credentials, generated on first start.",
                        "# Keys: send as 'Authorization: Bearer <key>', the part after 'name:'.",
                        "# Console: log in at /console as '" + CONSOLE_USER + "' with the console password.",
                        "# Delete a line (or the file) to generate it anew; configured keys and people",
                        "# (STOCKGUARD_SECURITY_*) take precedence.", ""));
            }
            Files.writeString(file, String.join("\n", lines) + "\n", StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write generated credentials to " + file, e);
        }
    }

    private static Properties read(Path file) {
        Properties stored = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            stored.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read credentials from " + file, e);
        }
        return stored;
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
