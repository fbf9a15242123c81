package io.stockguard.hotstore;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The Lua scripts of the hot path, kept as files under {@code redis/} and called by SHA-1. Every
 * script that reads or changes a SKU's copy or an order's record starts with the history fence
 * ({@code history.lua}): one home for the check that a copy or record was made under the Redis
 * history that serves it now.
 */
enum Script {
    RESERVE("reserve.lua", true),
    CONFIRM("confirm.lua", true),
    RELEASE("release.lua", true),
    STOCK("stock.lua", true),
    SNAPSHOT("snapshot.lua", true),
    LOAD("load.lua", true),
    SET_MODE("set_mode.lua", true),
    SET_LIMIT("set_limit.lua", true),
    RESTORE_LINE("restore_line.lua", true),
    LINE("line.lua", true),
    OUTBOX("outbox.lua", true),
    ORDER("order.lua", true),
    /** OPEN, then reserve.lua for the one line, where one script may touch two hash slots. */
    OPEN_RESERVE("open_reserve.lua", "order.lua", "reserve.lua"),
    /** The journaled entries' forget, then CLOSE, where one script may touch two hash slots. */
    FORGET_CLOSE("forget_close.lua", "order.lua");

    /** The fence put before the scripts that read or change a SKU's copy. */
    static final String HISTORY_FENCE = "history.lua";

    private final String file;
    private final String body;
    private final String sha;
    private final String tag;

    /** @param fenced whether the script reads or changes a SKU's copy, and so starts with the history fence */
    Script(String file, boolean fenced) {
        this.file = file;
        this.tag = tag(file);
        this.body = fenced ? read(HISTORY_FENCE) + read(file) : read(file);
        this.sha = sha1(body);
    }

    /**
     * A script made of others' steps: each part becomes a function of the composed script,
     * {@code sg_<name>(KEYS, ARGV)} (order.lua is {@code sg_order}), which the file calls with the
     * keys and arguments that part's own header names. One history fence serves them all.
     */
    Script(String file, String... parts) {
        this.file = file;
        this.tag = tag(file);
        StringBuilder composed = new StringBuilder(read(HISTORY_FENCE));
        for (String part : parts) {
            composed.append("local function sg_").append(tag(part)).append("(KEYS, ARGV)\n").append(read(part))
                    .append("\nend\n");
        }
        this.body = composed.append(read(file)).toString();
        this.sha = sha1(body);
    }

    private static String tag(String file) {
        return file.substring(0, file.length() - ".lua".length());
    }

    /** How observations and metrics name the script: the file's name without {@code .lua}. */
    String tag() {
        return tag;
    }

    String file() {
        return file;
    }

    String body() {
        return body;
    }

    /** The SHA-1 Redis knows the script by once loaded. */
    String sha() {
        return sha;
    }

    static String read(String file) {
        try (InputStream in = Script.class.getClassLoader().getResourceAsStream("redis/" + file)) {
            if (in == null) {
                throw new IllegalStateException("missing Lua script redis/" + file);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String sha1(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM provides SHA-1", e);
        }
    }
}
