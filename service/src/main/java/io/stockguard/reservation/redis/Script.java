package io.stockguard.reservation.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** The Lua scripts of the hot path, kept as files under {@code redis/} and called by SHA-1. */
enum Script {
    RESERVE("reserve.lua"),
    CONFIRM("confirm.lua"),
    RELEASE("release.lua"),
    STOCK("stock.lua"),
    SNAPSHOT("snapshot.lua"),
    LOAD("load.lua"),
    SET_MODE("set_mode.lua"),
    SET_LIMIT("set_limit.lua"),
    RESTORE_LINE("restore_line.lua"),
    LINE("line.lua"),
    ORDER("order.lua");

    private final String file;
    private final String body;
    private final String sha;
    private final String tag;

    Script(String file) {
        this.file = file;
        this.tag = file.substring(0, file.length() - ".lua".length());
        this.body = read(file);
        this.sha = sha1(body);
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

    private static String read(String file) {
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
