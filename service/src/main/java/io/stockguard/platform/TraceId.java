package io.stockguard.platform;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * A W3C trace id (32 lower-case hex digits, not all zero). It travels from the request through the
 * hot store event and the journal row, so one order can be followed across every layer.
 */
public record TraceId(String value) {

    private static final Pattern HEX_32 = Pattern.compile("[0-9a-f]{32}");
    private static final String ALL_ZERO = "0".repeat(32);

    public TraceId {
        if (value == null || !HEX_32.matcher(value).matches() || value.equals(ALL_ZERO)) {
            throw new IllegalArgumentException("a trace id is 32 lower-case hex digits, not all zero");
        }
    }

    /**
     * A fresh random id. Trace ids identify, they do not protect, so a thread-local generator is
     * enough and spares every request a shared lock.
     */
    public static TraceId random() {
        byte[] bytes = new byte[16];
        ThreadLocalRandom.current().nextBytes(bytes);
        bytes[0] |= 0x01;
        return new TraceId(HexFormat.of().formatHex(bytes));
    }

    /** The id as written (a tracer's trace id), or null when it is not a valid W3C trace id. */
    public static TraceId parse(String value) {
        return value != null && HEX_32.matcher(value).matches() && !value.equals(ALL_ZERO) ? new TraceId(value) : null;
    }

    /** Reads the trace id from a W3C {@code traceparent} header, or returns null if it is malformed. */
    public static TraceId fromTraceparent(String header) {
        if (header == null) {
            return null;
        }
        String[] parts = header.trim().split("-");
        if (parts.length < 4 || !parts[0].matches("[0-9a-f]{2}") || parts[0].equals("ff")) {
            return null;
        }
        String candidate = parts[1];
        if (!HEX_32.matcher(candidate).matches() || candidate.equals(ALL_ZERO)) {
            return null;
        }
        return new TraceId(candidate);
    }

    /**
     * A W3C {@code traceparent} naming this trace and a new span (the call it is sent with), not
     * sampled: a receiver can join its work to the trace, and records it only if it samples on its own.
     */
    public String traceparent() {
        byte[] span = new byte[8];
        ThreadLocalRandom.current().nextBytes(span);
        span[0] |= 0x01;
        return "00-" + value + "-" + HexFormat.of().formatHex(span) + "-00";
    }

    @Override
    public String toString() {
        return value;
    }
}
