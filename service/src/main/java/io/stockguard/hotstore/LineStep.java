package io.stockguard.hotstore;

/**
 * What a step on one order line answered ({@code confirm.lua}, {@code release.lua}), parsed once
 * where the script is called ({@link HotLines}); the scripts' headers are the contract. Each script
 * has its own sealed set, so a caller's switch is held to every answer its script gives.
 */
sealed interface LineStep {

    /** confirm.lua's answers. */
    sealed interface ToConfirm extends LineStep permits Moved, Already, InState, NoLine, NotSold, Foreign {
    }

    /** release.lua's answers (CANCEL, EXPIRE, UNRESERVE, DISCARD). */
    sealed interface ToRelease extends LineStep permits Moved, Unreserved, Tombstone, NoLine, Already, Journaled,
            NotSold, Foreign {
    }

    /** The line moved now: the change to journal. */
    record Moved(HotLines.Change change) implements ToConfirm, ToRelease {
    }

    /**
     * The line is in the state this step leads to already (an earlier attempt), or release.lua
     * found it settled.
     *
     * @param entries the outbox entries of its last change, comma-separated ('' once journaled)
     */
    record Already(String state, String entries) implements ToConfirm, ToRelease {
    }

    /** confirm.lua: the line is in a state a confirm cannot start from. */
    record InState(String state) implements ToConfirm {
    }

    /** No record of the line. */
    record NoLine() implements ToConfirm, ToRelease {
    }

    /** CANCEL of a line this SKU never saw: a tombstone now refuses a reserve still in flight (I7). */
    record Tombstone() implements ToRelease {
    }

    /** UNRESERVE, DISCARD: the reservation was undone as if it never happened. */
    record Unreserved() implements ToRelease {
    }

    /** UNRESERVE: an entry of the reservation left the outbox (journaled): it is cancelled instead. */
    record Journaled() implements ToRelease {
    }

    /** The hot store would not act for the caller's epoch. */
    record NotSold(NotOwner why) implements ToConfirm, ToRelease {
    }

    /** The line's record was written under another epoch: only the database can say what became of it. */
    record Foreign() implements ToConfirm, ToRelease {
    }

    /** Every answer of confirm.lua but {@code OK}, whose change only the caller of the script can describe. */
    static ToConfirm confirmRefusal(Reply reply) {
        return switch (reply.status()) {
            case "ALREADY" -> new Already("CONFIRMED", reply.string(1));
            case "STATE" -> new InState(reply.string(1));
            case "NONE" -> new NoLine();
            case "NOT_LOADED", "STALE" -> new NotSold(NotOwner.of(reply).orElseThrow());
            case "FOREIGN" -> new Foreign();
            default -> throw reply.unexpected("confirm.lua");
        };
    }

    /** Every answer of release.lua but {@code OK}. */
    static ToRelease releaseRefusal(Reply reply) {
        return switch (reply.status()) {
            case "UNRESERVED" -> new Unreserved();
            case "TOMBSTONE" -> new Tombstone();
            case "NONE" -> new NoLine();
            case "ALREADY" -> new Already(reply.string(1), reply.string(2));
            case "JOURNALED" -> new Journaled();
            case "NOT_LOADED", "STALE" -> new NotSold(NotOwner.of(reply).orElseThrow());
            case "FOREIGN" -> new Foreign();
            default -> throw reply.unexpected("release.lua");
        };
    }
}
