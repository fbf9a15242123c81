package io.stockguard.bench.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Lua scripts of the Redis contenders, kept as resource files under {@code /redis}. */
final class Scripts {

    private Scripts() {
    }

    static String load(String name) {
        try (InputStream in = Scripts.class.getResourceAsStream("/redis/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing script /redis/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
