package io.stockguard.hotstore;

import java.time.Duration;

/**
 * What {@code reserve.lua} answered for one line, parsed once where the script is called
 * ({@link HotLines#reserve}); its header is the contract. Callers switch on the kind, and the
 * compiler holds them to every kind.
 */
sealed interface ReserveReply {

    /** The line is held now: the change to journal. */
    record Made(HotLines.Change change) implements ReserveReply {
    }

    /**
     * A line of this order is on record under the caller's epoch already.
     *
     * @param state   the line's state: RESERVED or CONFIRMED as an attempt of this request leaves it,
     *                or one a settlement left since
     * @param entries the outbox entries of its last change, comma-separated ('' once journaled)
     */
    record Already(int bucket, String state, String entries) implements ReserveReply {
    }

    /** The line's record was written under another epoch: only the database can say what became of it. */
    record Foreign() implements ReserveReply {
    }

    /**
     * No line of the order here, and the copy was loaded after a loss (load.lua): the order may be
     * one the lost records had, so the database is asked before the line is made.
     */
    record AskDatabase() implements ReserveReply {
    }

    /** The hot store would not sell the SKU at the caller's epoch. */
    record NotSold(NotOwner why) implements ReserveReply {
    }

    record Short(long available) implements ReserveReply {
    }

    record Frozen() implements ReserveReply {
    }

    record Throttled(Duration retryAfter) implements ReserveReply {
    }

    /** The customer's limit on the SKU would be passed: the limit and the units they hold or bought. */
    record OverLimit(long limit, long held) implements ReserveReply {
    }

    record Cancelled() implements ReserveReply {
    }

    record Expired() implements ReserveReply {
    }

    /** The SKU's outbox is longer than the hot store may run ahead of the journal. */
    record Backlog(long length) implements ReserveReply {
    }

    /** Every reply but {@code OK}, whose change only the caller of the script can describe. */
    static ReserveReply refusal(Reply reply) {
        return switch (reply.status()) {
            case "ALREADY" -> new Already((int) reply.number(1), reply.string(2), reply.string(3));
            case "FOREIGN" -> new Foreign();
            case "ASK_DATABASE" -> new AskDatabase();
            case "NOT_LOADED", "STALE" -> new NotSold(NotOwner.of(reply).orElseThrow());
            case "SHORT" -> new Short(reply.number(1));
            case "FROZEN" -> new Frozen();
            case "THROTTLED" -> new Throttled(Duration.ofMillis(reply.number(1)));
            case "LIMIT" -> new OverLimit(reply.number(1), reply.number(2));
            case "CANCELLED" -> new Cancelled();
            case "EXPIRED" -> new Expired();
            case "BACKLOG" -> new Backlog(reply.number(1));
            default -> throw reply.unexpected("reserve.lua");
        };
    }
}
