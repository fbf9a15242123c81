package io.stockguard.chaos;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * A command's usage text: the file {@code usage.txt} beside its options class. The launcher prints
 * the same file for {@code --help}, so that help needs no build and the two cannot drift apart.
 */
public final class Usage {

    private Usage() {
    }

    public static String read(Class<?> options) {
        try (InputStream in = options.getResourceAsStream("usage.txt")) {
            if (in == null) {
                throw new IllegalStateException("no usage.txt beside " + options.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).stripTrailing();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
