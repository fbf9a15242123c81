package io.stockguard.hotstore;

import java.util.List;

/** A script's reply: a status word followed by values (Redis integers arrive as Long, strings as String). */
record Reply(List<Object> values) {

    String status() {
        return string(0);
    }

    boolean is(String status) {
        return status.equals(status());
    }

    String string(int index) {
        Object value = values.get(index);
        return value == null ? null : value.toString();
    }

    long number(int index) {
        Object value = values.get(index);
        return value instanceof Long l ? l : Long.parseLong(value.toString());
    }

    int size() {
        return values.size();
    }

    /**
     * The script would not act for the caller's epoch: the hot store lost the SKU ({@code NOT_LOADED}),
     * holds a copy loaded under another Redis history ({@code NOT_LOADED HISTORY}, see
     * {@code history.lua}), or is at another epoch ({@code STALE}). Either way the caller takes that
     * epoch over.
     */
    boolean notOwner() {
        return is("NOT_LOADED") || is("STALE");
    }

    /** {@code NOT_LOADED HISTORY}: the copy here was loaded under another Redis history (history.lua). */
    boolean otherHistory() {
        return is("NOT_LOADED") && size() > 1 && "HISTORY".equals(string(1));
    }

    /** Why the hot store is not the owner at {@code epoch}, for the take-over's log; see {@link #notOwner()}. */
    String whyNotOwner(long epoch) {
        if (is("STALE")) {
            return "the hot store has epoch " + number(1) + ", not " + epoch;
        }
        if (otherHistory()) {
            return "its copy in the hot store was loaded under another Redis history (a failover or a restart since): "
                    + "it may lack acknowledged changes";
        }
        return "the hot store lost it";
    }

    /** A reply the caller did not expect: a script and its caller disagree about the contract. */
    IllegalStateException unexpected(String script) {
        return new IllegalStateException(script + " answered " + values + ", which its caller does not handle");
    }
}
