package io.stockguard.chaos.check;

import io.stockguard.chaos.history.Op;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Everything the history says about one order: the clients' attempts at changing it, the reads
 * during the run, and the read after everything healed.
 */
public final class OrderFacts {

    private final String orderId;
    final List<Attempt> reserves = new ArrayList<>();
    final List<Attempt> confirms = new ArrayList<>();
    final List<Attempt> cancels = new ArrayList<>();
    /** Hold extensions: they change no state, only how long a hold lasts, so they are not {@link #changes()}. */
    final List<Attempt> extensions = new ArrayList<>();
    final List<Attempt> runReads = new ArrayList<>();
    Attempt finalRead;

    OrderFacts(String orderId) {
        this.orderId = orderId;
    }

    public String orderId() {
        return orderId;
    }

    public List<Attempt> reserves() {
        return reserves;
    }

    public List<Attempt> confirms() {
        return confirms;
    }

    public List<Attempt> cancels() {
        return cancels;
    }

    public List<Attempt> extensions() {
        return extensions;
    }

    /**
     * The longest hold a client was told the order has (seconds from its reservation): what an
     * acknowledged extension asked for; a request for less than the hold is answered the same.
     */
    public long extendedHoldSeconds() {
        return extensions.stream().filter(Attempt::acknowledged).mapToLong(a -> a.invoke().ttlSeconds()).max()
                .orElse(0);
    }

    /** Reserve, confirm and cancel attempts, in the order they were invoked. */
    public List<Attempt> changes() {
        return Stream.of(reserves, confirms, cancels).flatMap(List::stream)
                .sorted(Comparator.comparingLong(a -> a.invoke().index())).toList();
    }

    /** The acknowledged change completed last: the newest state a client was told about. */
    public Optional<Attempt> lastAcknowledged() {
        return changes().stream().filter(Attempt::acknowledged).max(Comparator.comparingLong(a -> a.answer().index()));
    }

    public Optional<Attempt> finalRead() {
        return Optional.ofNullable(finalRead);
    }

    /** The final read's state: its OK answer's, {@link OrderState#ABSENT} for a 404, empty if not definite. */
    public Optional<OrderState> finalState() {
        if (finalRead == null || finalRead.answer() == null) {
            return Optional.empty();
        }
        Op answer = finalRead.answer();
        if (answer.type() == Op.Type.OK) {
            return Optional.ofNullable(OrderState.parse(answer.state()));
        }
        boolean unknown = answer.type() == Op.Type.FAIL && Integer.valueOf(404).equals(answer.status())
                && "UNKNOWN_ORDER".equals(answer.code());
        return unknown ? Optional.of(OrderState.ABSENT) : Optional.empty();
    }

    /** The lines of the final read; none for a 404 or a tombstone. */
    public List<Op.Line> finalLines() {
        return finalState().filter(s -> s != OrderState.ABSENT).map(s -> finalRead.answer().lines())
                .orElse(List.of());
    }

    /** A cancel of an order the service did not know: CANCELLED, with no lines. */
    public boolean finalIsTombstone() {
        return finalState().orElse(null) == OrderState.CANCELLED && finalLines().isEmpty();
    }

    /** The lines the client asked for (every retry asks for the same; the acknowledged one is preferred). */
    public List<Op.Line> requestedLines() {
        return reserves.stream().filter(Attempt::acknowledged).findFirst().or(() -> reserves.stream().findFirst())
                .map(a -> a.invoke().lines()).orElse(List.of());
    }

    /**
     * Whether the service may have withdrawn a reservation that landed in doubt: an attempt whose
     * outcome is unknown, then a later attempt of the same order refused (a 4xx). The refusal tells
     * the client the order is not reserved, so the service cancels whatever of the first attempt
     * landed; the order may then read CANCELLED though the client never asked to cancel.
     */
    public boolean withdrawnByService() {
        return reserves.stream().filter(a -> a.mayHaveApplied() && !a.acknowledged()).anyMatch(doubt ->
                reserves.stream().anyMatch(later -> later.refused() && !later.unavailable()
                        && later.invokedAt() > doubt.invokedAt()));
    }

    /** Whether some attempt at {@code attempts} took effect or may have. */
    static boolean mayHaveApplied(List<Attempt> attempts) {
        return attempts.stream().anyMatch(Attempt::mayHaveApplied);
    }

    /** Every operation recorded for the order, in history order. */
    public List<Op> ops() {
        List<Attempt> last = finalRead == null ? List.of() : List.of(finalRead);
        return Stream.of(reserves, confirms, cancels, runReads, last)
                .flatMap(List::stream).flatMap(a -> a.ops().stream()).sorted(Comparator.comparingLong(Op::index))
                .toList();
    }
}
