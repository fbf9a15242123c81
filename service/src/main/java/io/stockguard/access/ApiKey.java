package io.stockguard.access;

import io.stockguard.platform.Actor;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A configured key: its actor and the SHA-256 of its secret. Only the hash is kept, and presented
 * keys are compared by hash, so the comparison takes the same time however much of a guess is right.
 */
record ApiKey(Actor actor, String secretHash) {

    private static final Pattern NAMED = Pattern.compile("([a-z0-9][a-z0-9._-]{0,31}):(.+)");
    private static final Pattern SECRET = Pattern.compile("[\\x21-\\x7e]+");

    static ApiKey parse(String entry, Actor.Kind kind) {
        String trimmed = entry.strip();
        Matcher named = NAMED.matcher(trimmed);
        String name = named.matches() ? named.group(1) : null;
        String secret = named.matches() ? named.group(2) : trimmed;
        String hash = hash(secret);
        return new ApiKey(new Actor(kind, name != null ? name : "key-" + hash.substring(0, 8)), hash);
    }

    /** What is wrong with a configured entry, or null; the message never repeats the secret. */
    static String problemWith(String entry) {
        if (entry == null || entry.isBlank()) {
            return "is empty";
        }
        String trimmed = entry.strip();
        Matcher named = NAMED.matcher(trimmed);
        String secret = named.matches() ? named.group(2) : trimmed;
        if (secret.length() < AccessProperties.SECRET_LENGTH_MIN) {
            return "is shorter than " + AccessProperties.SECRET_LENGTH_MIN + " characters";
        }
        if (!SECRET.matcher(secret).matches()) {
            return "may contain only printable ASCII characters without spaces";
        }
        return null;
    }

    static String hash(String secret) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(digest.digest(secret.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM provides SHA-256", e);
        }
    }
}
