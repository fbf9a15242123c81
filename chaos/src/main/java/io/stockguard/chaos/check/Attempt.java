package io.stockguard.chaos.check;

import io.stockguard.chaos.history.Op;
import java.util.List;

/**
 * One invocation and its completion. A completion missing at the end of the history counts as
 * {@link Op.Type#INFO}: the operation was sent, nobody knows whether it landed.
 *
 * @param invoke the invocation
 * @param completion its OK / FAIL / INFO, or null when the history ended before it
 */
public record Attempt(Op invoke, Op completion) {

    public Op.Type outcome() {
        return completion == null ? Op.Type.INFO : completion.type();
    }

    /** A 2xx: it took effect. */
    public boolean acknowledged() {
        return outcome() == Op.Type.OK;
    }

    /** OK or INFO: it took effect, or may have, at any time after its invocation. */
    public boolean mayHaveApplied() {
        return outcome() != Op.Type.FAIL;
    }

    public boolean refused() {
        return outcome() == Op.Type.FAIL;
    }

    /** Refused with {@code 503 UNAVAILABLE}: the API promised it was certainly not applied. */
    public boolean unavailable() {
        return refused() && Integer.valueOf(503).equals(completion.status()) && "UNAVAILABLE".equals(completion.code());
    }

    public String f() {
        return invoke.f();
    }

    public long invokedAt() {
        return invoke.atMillis();
    }

    /** When it completed; an attempt never completed is taken as completing at the end of time. */
    public long completedAt() {
        return completion == null ? Long.MAX_VALUE : completion.atMillis();
    }

    /** The completion, which carries the answer; null when there is none. */
    public Op answer() {
        return completion;
    }

    public List<Op> ops() {
        return completion == null || completion == invoke ? List.of(invoke) : List.of(invoke, completion);
    }
}
