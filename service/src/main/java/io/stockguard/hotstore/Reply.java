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

    /** Why the hot store would not act for {@code epoch}, for a log: the refusal's reason, or the reply itself. */
    String whyNot(long epoch) {
        return NotOwner.of(this).map(refusal -> refusal.why(epoch)).orElse(values.toString());
    }

    /** A reply the caller did not expect: a script and its caller disagree about the contract. */
    IllegalStateException unexpected(String script) {
        return new IllegalStateException(script + " answered " + values + ", which its caller does not handle");
    }
}
