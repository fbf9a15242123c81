package io.stockguard.access;

import java.time.Instant;
import java.util.regex.Pattern;

/**
 * A person who may log in to the console. Never carries the password hash: what leaves the access
 * module cannot leak it.
 *
 * @param source where the person is defined: configured people cannot be changed from the console
 */
public record Person(String name, PersonRole role, boolean enabled, Source source, Instant createdAt,
        String createdBy, Instant updatedAt) {

    /** Lower-case, so that "Alice" and "alice" are one person; the same shape as a key's name. */
    public static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");
    /** Long enough to resist guessing when the login throttle lets ten guesses through per window. */
    public static final int PASSWORD_LENGTH_MIN = 12;
    /** bcrypt reads 72 bytes at most; longer passwords would be silently truncated. */
    public static final int PASSWORD_LENGTH_MAX = 72;

    public enum Source { CONFIGURATION, CONSOLE }

    /** What is wrong with a proposed password, or null; the message never repeats the password. */
    public static String problemWithPassword(String password) {
        if (password == null || password.length() < PASSWORD_LENGTH_MIN) {
            return "must have at least " + PASSWORD_LENGTH_MIN + " characters";
        }
        if (password.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > PASSWORD_LENGTH_MAX) {
            return "must have at most " + PASSWORD_LENGTH_MAX + " bytes";
        }
        if (password.isBlank() || !password.strip().equals(password)) {
            return "must not start or end with a space";
        }
        return null;
    }
}
