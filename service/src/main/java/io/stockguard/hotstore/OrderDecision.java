package io.stockguard.hotstore;

/**
 * What {@code order.lua} answered to a step that decides an order's transition (CONFIRM, CANCEL,
 * EXPIRE, EXTEND), parsed once where the script is called ({@link HotOrders}); the script's header
 * is the contract. A reply that carries the order's recorded lines ({@link Recorded}) carries
 * each line's epoch too: the caller checks them against the epochs that own the SKUs now before it
 * trusts the record.
 */
sealed interface OrderDecision {

    /** CONFIRM's answers. */
    sealed interface ToConfirm extends OrderDecision permits Go, Done, Busy, Cancelled, Expired, NoRecord, Foreign {
    }

    /** CANCEL's answers. */
    sealed interface ToCancel extends OrderDecision permits Go, Done, Busy, Tombstone, Foreign {
    }

    /** EXPIRE's answers. */
    sealed interface ToExpire extends OrderDecision permits Go, NotDue, Stuck, Foreign {
    }

    /** EXTEND's answers. */
    sealed interface ToExtend extends OrderDecision permits Extended, NoExtensionLeft, Busy, Confirmed, Cancelled,
            Expired, NoRecord, Foreign {
    }

    /** A reply that carries the order's lines as recorded: "sku|qty|bucket|epoch;…" ('' while opening). */
    sealed interface Recorded extends OrderDecision {
        String recorded();
    }

    /** The record was made under another Redis history: it is not believed, and is rewritten from the database. */
    record Foreign() implements ToConfirm, ToCancel, ToExpire, ToExtend {
    }

    /** No record of the order (CONFIRM, EXTEND). */
    record NoRecord() implements ToConfirm, ToExtend {
    }

    /** CANCEL found no record and left a tombstone (I7). */
    record Tombstone() implements ToCancel {
    }

    /** The transition is this caller's to make: the lines to move ("sku|qty;…"), and as recorded. */
    record Go(String lines, String recorded) implements Recorded, ToConfirm, ToCancel, ToExpire {
    }

    /** The transition was made already (a retry): the state the order ended in, and its lines as recorded. */
    record Done(String state, String recorded) implements Recorded, ToConfirm, ToCancel {
    }

    /** Another request holds the order (a reservation still opening, a confirm under way). */
    record Busy(String recorded) implements Recorded, ToConfirm, ToCancel, ToExtend {
    }

    record Confirmed() implements ToExtend {
    }

    record Cancelled() implements ToConfirm, ToExtend {
    }

    record Expired() implements ToConfirm, ToExtend {
    }

    /** EXPIRE: the order is not due (its state, when its hold ends in epoch ms, how often it was extended). */
    record NotDue(String state, long holdEndsMillis, int extensions, String recorded) implements Recorded, ToExpire {
    }

    /** EXPIRE: a caller that died long ago left the order OPENING or CONFIRMING; the database decides first. */
    record Stuck(String state, String recorded) implements ToExpire {
    }

    /**
     * EXTEND: the hold ends at {@code holdEndsMillis} after {@code extensions} extensions; {@code already}
     * when it did before this request (a retry).
     */
    record Extended(long holdEndsMillis, int extensions, String recorded, boolean already)
            implements Recorded, ToExtend {
    }

    /** EXTEND: no extension left. */
    record NoExtensionLeft(long holdEndsMillis, int extensions, String recorded) implements Recorded, ToExtend {
    }

    static ToConfirm confirm(Reply reply) {
        return switch (reply.status()) {
            case "GO" -> new Go(reply.string(1), reply.string(2));
            case "DONE" -> new Done("CONFIRMED", reply.string(1));
            case "EXPIRED" -> new Expired();
            case "CANCELLED" -> new Cancelled();
            case "BUSY" -> new Busy(reply.string(1));
            case "NONE" -> new NoRecord();
            case "FOREIGN" -> new Foreign();
            default -> throw reply.unexpected("order.lua CONFIRM");
        };
    }

    static ToCancel cancel(Reply reply) {
        return switch (reply.status()) {
            case "TOMBSTONE" -> new Tombstone();
            case "GO" -> new Go(reply.string(1), reply.string(2));
            case "DONE" -> new Done(reply.string(1), reply.string(2));
            case "BUSY" -> new Busy(reply.string(1));
            case "FOREIGN" -> new Foreign();
            default -> throw reply.unexpected("order.lua CANCEL");
        };
    }

    static ToExpire expire(Reply reply) {
        return switch (reply.status()) {
            case "GO" -> new Go(reply.string(1), reply.string(2));
            case "SKIP" -> new NotDue(reply.string(1), reply.number(2), (int) reply.number(3), reply.string(4));
            case "STUCK" -> new Stuck(reply.string(1), reply.string(2));
            case "FOREIGN" -> new Foreign();
            default -> throw reply.unexpected("order.lua EXPIRE");
        };
    }

    static ToExtend extend(Reply reply) {
        return switch (reply.status()) {
            case "OK", "DONE" -> new Extended(reply.number(1), (int) reply.number(2), reply.string(3),
                    reply.is("DONE"));
            case "USED" -> new NoExtensionLeft(reply.number(1), (int) reply.number(2), reply.string(3));
            case "EXPIRED" -> new Expired();
            case "CANCELLED" -> new Cancelled();
            case "CONFIRMED" -> new Confirmed();
            case "BUSY" -> new Busy(reply.string(1));
            case "NONE" -> new NoRecord();
            case "FOREIGN" -> new Foreign();
            default -> throw reply.unexpected("order.lua EXTEND");
        };
    }
}
