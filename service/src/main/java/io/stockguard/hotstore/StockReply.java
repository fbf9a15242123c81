package io.stockguard.hotstore;

/**
 * What {@code stock.lua} answered to a restock or an adjustment, parsed once where the script is
 * called ({@link HotLines#stock}); its header is the contract.
 */
sealed interface StockReply {

    /** The change was made now: what to journal. */
    record Made(HotLines.Change change) implements StockReply {
    }

    /** An earlier attempt of the request made it under this epoch: its entries still in the outbox, if any. */
    record Replayed(String entries) implements StockReply {
    }

    /** The request id was used for another change. */
    record Conflict() implements StockReply {
    }

    /** A removal would take more than is available. */
    record Short(long available) implements StockReply {
    }

    record Backlog(long length) implements StockReply {
    }

    record NotSold(NotOwner why) implements StockReply {
    }

    /** Every answer but {@code OK}, whose change only the caller of the script can describe. */
    static StockReply refusal(Reply reply) {
        return switch (reply.status()) {
            case "REPLAYED" -> new Replayed(reply.string(2));
            case "CONFLICT" -> new Conflict();
            case "SHORT" -> new Short(reply.number(1));
            case "BACKLOG" -> new Backlog(reply.number(1));
            case "NOT_LOADED", "STALE" -> new NotSold(NotOwner.of(reply).orElseThrow());
            default -> throw reply.unexpected("stock.lua");
        };
    }
}
