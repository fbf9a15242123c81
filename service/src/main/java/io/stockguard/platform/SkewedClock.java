package io.stockguard.platform;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;

/**
 * A clock for fault injection only: another clock moved by an offset that is read from a file
 * (an ISO-8601 duration such as {@code PT2M}; an absent or empty file is no offset), so that a
 * chaos test can move a running instance's time forward or back, as a bad NTP step would. The
 * file is read at most every {@link #REREAD_INTERVAL}. Enabled only by the property
 * {@code stockguard.testing.clock-offset-file}; production never sets it.
 */
final class SkewedClock extends Clock {

    private static final Duration REREAD_INTERVAL = Duration.ofMillis(100);

    private final Clock base;
    private final Path offsetFile;
    private volatile Duration offset = Duration.ZERO;
    private volatile long nextReadNanos;

    SkewedClock(Clock base, Path offsetFile) {
        this.base = base;
        this.offsetFile = offsetFile;
    }

    @Override
    public Instant instant() {
        return base.instant().plus(offset());
    }

    @Override
    public ZoneId getZone() {
        return base.getZone();
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return new SkewedClock(base.withZone(zone), offsetFile);
    }

    private Duration offset() {
        long now = System.nanoTime();
        if (now - nextReadNanos >= 0) {
            nextReadNanos = now + REREAD_INTERVAL.toNanos();
            offset = read();
        }
        return offset;
    }

    private Duration read() {
        try {
            if (!Files.exists(offsetFile)) {
                return Duration.ZERO;
            }
            String text = Files.readString(offsetFile).trim();
            return text.isEmpty() ? Duration.ZERO : Duration.parse(text);
        } catch (IOException | DateTimeParseException e) {
            // A file being rewritten can be read half-way: keep the last offset until the next read.
            return offset;
        }
    }
}
