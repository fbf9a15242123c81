package io.stockguard.client;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/** Reads a {@code Retry-After} header: a number of seconds, or an HTTP date (RFC 9110 section 10.2.3). */
final class RetryAfter {

    /** Longer than any wait a policy allows; a larger number is read as this, not as an overflow. */
    private static final long SECONDS_MAX = 24 * 60 * 60;

    private RetryAfter() {
    }

    /** The wait the header asks for, counted from {@code now}; empty when absent or unreadable. */
    static Optional<Duration> parse(String header, Instant now) {
        if (header == null || header.isBlank()) {
            return Optional.empty();
        }
        String value = header.strip();
        if (value.chars().allMatch(Character::isDigit)) {
            // More digits than a long holds is still "a very long wait", never an error.
            long seconds = value.length() > 12 ? SECONDS_MAX : Math.min(Long.parseLong(value), SECONDS_MAX);
            return Optional.of(Duration.ofSeconds(seconds));
        }
        try {
            Instant at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            Duration wait = Duration.between(now, at);
            // A date in the past means "now"; one absurdly far ahead is capped like a number.
            return Optional.of(wait.isNegative() ? Duration.ZERO
                    : wait.compareTo(Duration.ofSeconds(SECONDS_MAX)) > 0 ? Duration.ofSeconds(SECONDS_MAX) : wait);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
