package io.stockguard.hotstore;

import java.time.Instant;

/**
 * What {@code order.lua}'s OPEN answered, parsed once where the script is called
 * ({@link HotOrders#open}); the script's header is the contract.
 */
sealed interface OpenReply {

    /** The record is this request's to fill: a new one, or one a request left half-way ({@code resumed}). */
    record Opened(boolean resumed) implements OpenReply {
    }

    /**
     * Another attempt holds the record and has not gone quiet.
     *
     * @param holder that attempt's id ('' when the record names none)
     */
    record Busy(String holder) implements OpenReply {
    }

    /** The order id was used for another request (other lines, quantities or customer). */
    record Conflict() implements OpenReply {
    }

    record Cancelled() implements OpenReply {
    }

    record Expired() implements OpenReply {
    }

    /**
     * The order was made already: a retry, answered with the record.
     *
     * @param state    the record's state
     * @param recorded the lines with their buckets and epochs, "sku|qty|bucket|epoch;…"
     */
    record Done(String state, Instant createdAt, Instant holdEndsAt, String traceId, String recorded,
            int extensions) implements OpenReply {
    }

    /** The record was made under another Redis history: it is not believed, and is rewritten from the database. */
    record Foreign() implements OpenReply {
    }

    static OpenReply of(Reply reply) {
        return switch (reply.status()) {
            case "NEW" -> new Opened(false);
            case "RESUME" -> new Opened(true);
            case "BUSY" -> new Busy(reply.size() > 1 && reply.string(1) != null ? reply.string(1) : "");
            case "CONFLICT" -> new Conflict();
            case "CANCELLED" -> new Cancelled();
            case "EXPIRED" -> new Expired();
            case "DONE" -> {
                String trace = reply.string(4);
                yield new Done(reply.string(1), RecordedLines.instant(reply.string(2)),
                        RecordedLines.instant(reply.string(3)),
                        trace == null || trace.isEmpty() ? null : trace, reply.string(5),
                        Integer.parseInt(reply.string(6)));
            }
            case "FOREIGN" -> new Foreign();
            default -> throw reply.unexpected("order.lua OPEN");
        };
    }
}
