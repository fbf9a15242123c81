package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.stock.OrderId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** order.lua: the order record's state machine, idempotency gate and tombstones. */
class OrderScriptIT {

    @RegisterExtension
    static final ScriptFixture redis = new ScriptFixture();

    private static Reply order(OrderId order, String op, long now, String... rest) {
        List<String> arguments = new ArrayList<>(List.of(op, Long.toString(now)));
        arguments.addAll(List.of(rest));
        return redis.run(Script.ORDER, List.of(Keys.order(order)), arguments);
    }

    private static Reply open(OrderId order, String fingerprint, long now, long holdEnds) {
        return order(order, "OPEN", now, fingerprint, "A|1;B|2", Long.toString(holdEnds), "trace", "3600", "30000");
    }

    private static Reply open(OrderId order, long now, String attempt) {
        return order(order, "OPEN", now, "fp", "A|1;B|2", "0", "trace", "3600", "30000", "", attempt);
    }

    /**
     * As if the record's holder had not touched it for that long, on the Redis server's clock (the
     * one order.lua measures quiet by): its last change is moved back.
     */
    private static void quiet(OrderId order, long millis) {
        redis.server.command("HINCRBY", Keys.order(order), "u", Long.toString(-millis));
    }

    @Test
    void opensClosesAndReplaysTheOriginalOutcome() {
        OrderId order = ScriptFixture.order();
        assertThat(open(order, "fp", 1000, 901000).status()).isEqualTo("NEW");
        assertThat(open(order, "fp", 1001, 901000).status()).as("a concurrent retry").isEqualTo("BUSY");
        assertThat(open(order, "other", 1001, 901000).status()).isEqualTo("CONFLICT");
        assertThat(order(order, "CLOSE", 1002, "RESERVED", "A|1|3|4;B|2|0|7").status()).isEqualTo("OK");

        Reply replay = open(order, "fp", 2000, 901000);

        assertThat(replay.values()).containsExactly("DONE", "RESERVED", "1000", "901000", "trace", "A|1|3|4;B|2|0|7",
                "0");
    }

    @Test
    void aRecordOfAnotherRedisHistoryIsNotBelieved() {
        OrderId order = ScriptFixture.order();
        open(order, "fp", 1000, 901000);
        assertThat(redis.server.command("HGET", Keys.order(order), "h")).as("stamped with the server's history")
                .hasSize(40);
        // As a replica promoted after a failover holds it: an opening the lost history finished.
        redis.server.command("HSET", Keys.order(order), "h", "0".repeat(40));

        assertThat(order(order, "GET", 2000).values()).containsExactly("NONE");
        for (String op : List.of("CONFIRM", "EXTEND")) {
            assertThat(order(order, op, 2000, "1000", "3").values()).as(op).containsExactly("FOREIGN");
        }
        assertThat(order(order, "CANCEL", 2000, "3600", "30000").values()).containsExactly("FOREIGN");
        assertThat(open(order, "fp", 2000, 901000).values()).as("not BUSY").containsExactly("FOREIGN");
        assertThat(order(order, "CLOSE", 2000, "RESERVED", "A|1|3|4").values()).containsExactly("STATE", "FOREIGN");
        assertThat(order(order, "SETTLING", 2000, "30000").values()).containsExactly("IDLE", "FOREIGN");

        assertThat(order(order, "RESTORE", 2000, "CONFIRMED", "fp", "A|1;B|2", "A|1|3|4;B|2|0|7", "1000", "0", "trace",
                "3600", "", "", "0", "").status()).as("the database's copy replaces it").isEqualTo("OK");
        assertThat(order(order, "GET", 2001).values()).startsWith("FOUND", "CONFIRMED");

        OrderId gone = ScriptFixture.order();
        open(gone, "fp", 1000, 901000);
        redis.server.command("HSET", Keys.order(gone), "h", "0".repeat(40));
        assertThat(order(gone, "FORGET", 2000, "").status()).as("one the database does not have goes").isEqualTo("OK");
        assertThat(open(gone, "fp", 2001, 901000).status()).isEqualTo("NEW");
    }

    @Test
    void aStaleOpeningIsTakenOverAndAnAbortForgetsTheOrder() {
        OrderId stale = ScriptFixture.order();
        open(stale, "fp", 1000, 0);
        quiet(stale, 30_001);
        assertThat(open(stale, "fp", 1001, 0).status()).isEqualTo("RESUME");

        OrderId refused = ScriptFixture.order();
        open(refused, "fp", 1000, 0);
        assertThat(order(refused, "ABORT", 1001).status()).isEqualTo("OK");
        assertThat(open(refused, "fp", 1002, 0).status()).as("a retry starts afresh").isEqualTo("NEW");
    }

    @Test
    void aTwinOnAnInstanceWhoseClockRunsAheadWaitsForTheRequestThatOpenedTheOrder() {
        OrderId order = ScriptFixture.order();
        long now = System.currentTimeMillis();
        assertThat(open(order, now, "b-1").status()).isEqualTo("NEW");

        // The chaos suite's clock-forward fault: the twin's instance runs two minutes ahead. Its
        // clock is not the one quiet is measured on, so the holder keeps the record.
        assertThat(open(order, now + 120_000, "a-1").status()).isEqualTo("BUSY");
        assertThat(order(order, "CLAIM", now + 120_000, "30000", "sweeper").status()).isEqualTo("BUSY");
        assertThat(order(order, "CLOSE", now + 1, "RESERVED", "A|1|3|4;B|2|0|7", "b-1").status()).isEqualTo("OK");
        assertThat(open(order, now + 120_001, "a-1").status()).as("a replay").isEqualTo("DONE");
    }

    @Test
    void aRecordHeldByAnAttemptOfAGoneInstanceIsTakenOverAtOnceButOnlyFromThatHolder() {
        OrderId order = ScriptFixture.order();
        open(order, 1000, "killed.1");
        assertThat(openTakingOver(order, "live.1", "").values()).containsExactly("BUSY", "killed.1");
        assertThat(openTakingOver(order, "live.1", "other.9").values()).as("another holder named")
                .containsExactly("BUSY", "killed.1");

        assertThat(openTakingOver(order, "live.1", "killed.1").status()).isEqualTo("RESUME");

        assertThat(order(order, "CLOSE", 1003, "RESERVED", "A|1|3|4;B|2|0|7", "killed.1").values())
                .as("the first holder, had it only been starved").containsExactly("TAKEN");
        assertThat(openTakingOver(order, "late.1", "killed.1").values())
                .as("a second request that found the same instance gone: the record has a live holder now")
                .containsExactly("BUSY", "live.1");
    }

    private static Reply openTakingOver(OrderId order, String attempt, String goneHolder) {
        return order(order, "OPEN", 1002, "fp", "A|1;B|2", "0", "trace", "3600", "30000", "", attempt, goneHolder);
    }

    @Test
    void anAttemptWhoseRecordWasTakenOverCannotCloseAbortOrGiveItUp() {
        OrderId order = ScriptFixture.order();
        open(order, 1000, "first");
        quiet(order, 30_001);
        assertThat(open(order, 1001, "second").status()).isEqualTo("RESUME");

        // The first attempt was only slow (a starved CPU, a long pause): it comes back to its record.
        assertThat(order(order, "CLOSE", 1002, "RESERVED", "A|1|3|4;B|2|0|7", "first").values())
                .containsExactly("TAKEN");
        assertThat(order(order, "ABORT", 1003, "first").values()).containsExactly("TAKEN");
        assertThat(order(order, "GIVE_UP", 1004, "fp", "first").values()).containsExactly("TAKEN");
        assertThat(open(order, 1005, "third").status()).as("neither given up nor forgotten").isEqualTo("BUSY");
        assertThat(order(order, "GET", 1006).string(1)).isEqualTo("OPENING");

        assertThat(order(order, "CLOSE", 1007, "RESERVED", "A|1|3|4;B|2|0|7", "second").status()).isEqualTo("OK");

        OrderId claimed = ScriptFixture.order();
        open(claimed, 1000, "request");
        quiet(claimed, 30_001);
        assertThat(order(claimed, "CLAIM", 1001, "30000", "sweeper").status()).isEqualTo("CLAIMED");
        assertThat(order(claimed, "ABORT", 1002, "request").values()).as("the sweeper holds it").containsExactly("TAKEN");
        assertThat(order(claimed, "ABORT", 1003, "sweeper").values()).containsExactly("OK");
    }

    @Test
    void anOpeningItsRequestGaveUpOnIsResumedAtOnceButOnlyByTheSameRequest() {
        OrderId order = ScriptFixture.order();
        open(order, "fp", 1000, 0);
        assertThat(order(order, "GIVE_UP", 1001, "other").values()).as("another request's fingerprint")
                .containsExactly("STATE", "OPENING");
        assertThat(open(order, "fp", 1002, 0).status()).as("not given up: still in progress").isEqualTo("BUSY");

        assertThat(order(order, "GIVE_UP", 1003, "fp").status()).isEqualTo("OK");

        assertThat(open(order, "fp", 1004, 0).status()).as("long before it would go stale").isEqualTo("RESUME");
        assertThat(open(order, "fp", 1005, 0).status()).as("the resumer holds it now").isEqualTo("BUSY");
        assertThat(order(order, "CLOSE", 1006, "RESERVED", "A|1|3|4;B|2|0|7").status()).isEqualTo("OK");
        assertThat(order(order, "GIVE_UP", 1007, "fp").values()).as("a closed order is not reopened")
                .containsExactly("STATE", "RESERVED");
        assertThat(order(ScriptFixture.order(), "GIVE_UP", 1008, "fp").values()).containsExactly("STATE", "NONE");
    }

    @Test
    void theSweeperClaimsAnOpeningOnlyOnceItsRequestIsGoneAndHoldsItAgainstRetries() {
        OrderId order = ScriptFixture.order();
        open(order, "fp", 1000, 0);
        assertThat(order(order, "CLAIM", 1001, "30000").status()).as("its request is still at work").isEqualTo("BUSY");
        order(order, "GIVE_UP", 1002, "fp");

        assertThat(order(order, "CLAIM", 1003, "30000").values()).containsExactly("CLAIMED", "fp", "A|1;B|2");

        assertThat(order(order, "CLAIM", 1004, "30000").status()).as("another sweeper").isEqualTo("BUSY");
        assertThat(open(order, "fp", 1005, 0).status()).as("a retry waits for the sweeper").isEqualTo("BUSY");
        assertThat(order(order, "GIVE_UP", 1006, "fp").status()).as("handed back").isEqualTo("OK");
        assertThat(open(order, "fp", 1007, 0).status()).isEqualTo("RESUME");
        quiet(order, 30_001);
        assertThat(order(order, "CLAIM", 1008, "30000").values()).as("stale again")
                .containsExactly("CLAIMED", "fp", "A|1;B|2");
        order(order, "CLOSE", 1008 + 30_002, "RESERVED", "A|1|3|4;B|2|0|7");
        assertThat(order(order, "CLAIM", 1008 + 90_000, "30000").values()).as("closed: nothing to settle")
                .containsExactly("STATE", "RESERVED");
        assertThat(order(ScriptFixture.order(), "CLAIM", 1000, "30000").values()).containsExactly("STATE", "NONE");
    }

    @Test
    void aSettlementIsUnderWayUntilItFinishesOrItsCallerGoesQuiet() {
        OrderId order = ScriptFixture.order();
        open(order, "fp", 1000, 0);
        order(order, "CLOSE", 1001, "RESERVED", "A|1|3|4;B|2|0|7");
        assertThat(order(order, "SETTLING", 1002, "30000").values()).containsExactly("IDLE", "RESERVED");
        order(order, "CANCEL", 1003, "3600", "30000");

        assertThat(order(order, "SETTLING", 1004, "30000").values()).containsExactly("BUSY", "CANCELLING");
        quiet(order, 30_001);
        assertThat(order(order, "SETTLING", 1004, "30000").values()).as("its caller went quiet")
                .containsExactly("IDLE", "CANCELLING");
        order(order, "FINISH", 1005, "CANCELLED");
        assertThat(order(order, "SETTLING", 1006, "30000").values()).containsExactly("IDLE", "CANCELLED");
        assertThat(order(ScriptFixture.order(), "SETTLING", 1000, "30000").values()).containsExactly("IDLE", "NONE");
    }

    @Test
    void cancelOfAnUnknownOrderLeavesATombstoneThatRefusesALateReserve() {
        OrderId order = ScriptFixture.order();
        assertThat(order(order, "CANCEL", 1000, "3600").status()).isEqualTo("TOMBSTONE");
        assertThat(open(order, "fp", 1001, 0).status()).isEqualTo("CANCELLED");
        assertThat(order(order, "CANCEL", 1002, "3600").values()).as("a tombstone has no lines")
                .containsExactly("DONE", "CANCELLED", "");
    }

    @Test
    void confirmIsRefusedAfterTheHoldEndsAndExpiryOnlyTakesDueOrders() {
        OrderId order = ScriptFixture.order();
        open(order, "fp", 1000, 5000);
        order(order, "CLOSE", 1001, "RESERVED", "A|1|0|3;B|2|0|5");

        assertThat(order(order, "EXPIRE", 4999).values()).containsExactly("SKIP", "RESERVED", "5000", "0",
                "A|1|0|3;B|2|0|5");
        assertThat(order(order, "CONFIRM", 5000).status()).isEqualTo("EXPIRED");
        Reply expire = order(order, "EXPIRE", 5000);
        assertThat(expire.values()).containsExactly("GO", "A|1;B|2", "A|1|0|3;B|2|0|5");
        assertThat(order(order, "EXPIRE", 5001).values()).as("a resumed expiry").containsExactly("GO", "A|1;B|2",
                "A|1|0|3;B|2|0|5");
        assertThat(order(order, "FINISH", 5001, "EXPIRED").status()).isEqualTo("OK");
        assertThat(order(order, "GET", 5002).string(1)).isEqualTo("EXPIRED");
        assertThat(order(order, "EXPIRE", 5003).values()).containsExactly("SKIP", "EXPIRED", "5000", "0",
                "A|1|0|3;B|2|0|5");
        assertThat(order(ScriptFixture.order(), "EXPIRE", 5003).values()).containsExactly("SKIP", "NONE", "0", "0", "");
    }

    @Test
    void hypothesis8ARecordLeftHalfWayByACallerThatDiedIsReportedStuckToExpiryOnceStale() {
        OrderId opening = ScriptFixture.order();
        open(opening, "fp", 1000, 2000);
        OrderId confirming = ScriptFixture.order();
        open(confirming, "fp", 1000, 2000);
        order(confirming, "CLOSE", 1001, "RESERVED", "A|1|0|3");
        assertThat(order(confirming, "CONFIRM", 1002).status()).isEqualTo("GO");

        quiet(opening, 29_000);
        assertThat(order(opening, "EXPIRE", 1003, "30000").values()).as("its caller may still be at work")
                .containsExactly("SKIP", "OPENING", "2000", "0", "");
        quiet(opening, 1_100);
        assertThat(order(opening, "EXPIRE", 1004, "30000").values()).as("stale: rewritten from the database")
                .containsExactly("STUCK", "OPENING", "");
        quiet(confirming, 30_001);
        assertThat(order(confirming, "EXPIRE", 1005, "30000").values())
                .containsExactly("STUCK", "CONFIRMING", "A|1|0|3");
    }

    @Test
    void confirmAndCancelMoveThroughTheirTransitionalStates() {
        OrderId order = ScriptFixture.order();
        open(order, "fp", 1000, 0);
        order(order, "CLOSE", 1001, "CONFIRMED", "A|1|0|2;B|2|0|2");
        assertThat(order(order, "CONFIRM", 1002).values()).containsExactly("DONE", "A|1|0|2;B|2|0|2");

        assertThat(order(order, "CANCEL", 1003, "3600").values()).containsExactly("GO", "A|1;B|2", "A|1|0|2;B|2|0|2");
        assertThat(open(order, "fp", 1004, 0).status()).as("a reserve during the cancel").isEqualTo("CANCELLED");
        assertThat(order(order, "CANCEL", 1005, "3600").values()).as("a resumed cancel")
                .containsExactly("GO", "A|1;B|2", "A|1|0|2;B|2|0|2");
        assertThat(order(order, "FINISH", 1006, "CANCELLED").status()).isEqualTo("OK");
        assertThat(order(order, "FINISH", 1007, "CONFIRMED").status()).isEqualTo("STATE");
        assertThat(order(order, "CANCEL", 1008, "3600").values()).containsExactly("DONE", "CANCELLED",
                "A|1|0|2;B|2|0|2");
    }

    @Test
    void restoreWritesBackALostRecordButNotOverAPresentOneUnlessTold() {
        OrderId order = ScriptFixture.order();
        assertThat(restore(order, 1000, "RESERVED", "A|1|2|1", false).status()).isEqualTo("OK");
        assertThat(order(order, "GET", 1000).values())
                .containsExactly("FOUND", "RESERVED", "restored", "A|1", "1000", "901000", "", "A|1|2|1", "0", "");
        assertThat(restore(order, 1001, "CANCELLED", "A|1|2|1", false).status()).isEqualTo("PRESENT");
        assertThat(restore(order, 1002, "CANCELLED", "A|1|2|2", true).status())
                .as("overwriting a record made under another epoch").isEqualTo("OK");
        assertThat(order(order, "GET", 1003).values())
                .containsExactly("FOUND", "CANCELLED", "restored", "A|1", "1000", "901000", "", "A|1|2|2", "0", "");
    }

    @Test
    void extendHoldsAReservedOrderLongerOnceNeverShorterAndNeverAfterItsEnd() {
        OrderId order = ScriptFixture.order();
        open(order, "fp", 1000, 5000);
        order(order, "CLOSE", 1001, "RESERVED", "A|1|0|3;B|2|0|5");

        assertThat(order(order, "EXTEND", 2000, "3000", "1").values()).as("a hold it has already")
                .containsExactly("DONE", 5000L, 0L, "A|1|0|3;B|2|0|5");
        assertThat(order(order, "EXTEND", 2000, "9000", "1").values())
                .containsExactly("OK", 10000L, 1L, "A|1|0|3;B|2|0|5");
        assertThat(order(order, "EXTEND", 2001, "9000", "1").values()).as("a retry")
                .containsExactly("DONE", 10000L, 1L, "A|1|0|3;B|2|0|5");
        assertThat(order(order, "EXTEND", 2002, "12000", "1").values()).as("a second extension")
                .containsExactly("USED", 10000L, 1L, "A|1|0|3;B|2|0|5");
        assertThat(order(order, "GET", 2003).values())
                .containsExactly("FOUND", "RESERVED", "fp", "A|1;B|2", "1000", "10000", "trace", "A|1|0|3;B|2|0|5", "1",
                        "");
        assertThat(order(order, "EXPIRE", 6000).values()).as("past the first end, not the new one")
                .containsExactly("SKIP", "RESERVED", "10000", "1", "A|1|0|3;B|2|0|5");
        assertThat(order(order, "CONFIRM", 6000).status()).isEqualTo("GO");
        assertThat(order(order, "EXTEND", 6001, "12000", "1").status()).isEqualTo("CONFIRMED");

        OrderId lapsed = ScriptFixture.order();
        reserved(lapsed, "A|1|0|3");
        assertThat(order(lapsed, "EXTEND", 901000, "1800000", "1").status()).as("its hold has ended")
                .isEqualTo("EXPIRED");
        OrderId opening = ScriptFixture.order();
        open(opening, "fp", 1000, 5000);
        assertThat(order(opening, "EXTEND", 1001, "9000", "1").status()).isEqualTo("BUSY");
        assertThat(order(ScriptFixture.order(), "EXTEND", 1001, "9000", "1").status()).isEqualTo("NONE");
        OrderId cancelled = ScriptFixture.order();
        reserved(cancelled, "A|1|0|3");
        order(cancelled, "CANCEL", 1002, "3600", "30000");
        assertThat(order(cancelled, "EXTEND", 1003, "9000", "1").status()).isEqualTo("CANCELLED");
    }

    @Test
    void restoreCarriesTheExtensionCount() {
        OrderId order = ScriptFixture.order();
        assertThat(order(order, "RESTORE", 1000, "RESERVED", "restored", "A|1", "A|1|2|1", "1000", "1801000", "",
                "3600", "0", "", "1").status()).isEqualTo("OK");
        assertThat(order(order, "EXTEND", 1001, "3600000", "1").values()).as("extended before the database's copy")
                .containsExactly("USED", 1801000L, 1L, "A|1|2|1");
    }

    /** RESTORE of a record with one line on A (its lines with buckets given), overwriting or not. */
    private static Reply restore(OrderId order, long now, String state, String linesWithBuckets, boolean overwrite) {
        return order(order, "RESTORE", now, state, "restored", "A|1", linesWithBuckets, "1000", "901000", "", "3600",
                overwrite ? "1" : "0");
    }

    private static void reserved(OrderId order, String linesWithBuckets) {
        open(order, "fp", 1000, 901000);
        assertThat(order(order, "CLOSE", 1001, "RESERVED", linesWithBuckets).status()).isEqualTo("OK");
    }

    @Test
    void restoreWithOverwriteKeepsARecordWhoseLinesAllCarryTheGivenEpochs() {
        OrderId order = ScriptFixture.order();
        reserved(order, "A|1|2|3;B|2|0|5");

        Reply reply = order(order, "RESTORE", 2000, "CANCELLED", "restored", "A|1;B|2", "A|1|2|3;B|2|0|5", "1000",
                "0", "", "3600", "1");

        assertThat(reply.status()).isEqualTo("PRESENT");
        assertThat(order(order, "GET", 2001).values())
                .containsExactly("FOUND", "RESERVED", "fp", "A|1;B|2", "1000", "901000", "trace", "A|1|2|3;B|2|0|5",
                        "0", "");
    }

    @Test
    void restoreWithOverwriteReplacesARecordWithOneLineOfAnotherEpoch() {
        OrderId order = ScriptFixture.order();
        reserved(order, "A|1|2|3;B|2|0|4");

        Reply reply = order(order, "RESTORE", 2000, "CANCELLED", "restored", "A|1;B|2", "A|1|2|3;B|2|0|5", "1000",
                "0", "", "3600", "1");

        assertThat(reply.status()).isEqualTo("OK");
        assertThat(order(order, "GET", 2001).values())
                .containsExactly("FOUND", "CANCELLED", "restored", "A|1;B|2", "1000", "0", "", "A|1|2|3;B|2|0|5",
                        "0", "");
    }

    @Test
    void restoreWithOverwriteReplacesARecordThatHasNoLinesYet() {
        OrderId opening = ScriptFixture.order();
        open(opening, "fp", 1000, 901000);

        assertThat(restore(opening, 2000, "RESERVED", "A|1|2|3", true).status()).isEqualTo("OK");
        assertThat(order(opening, "GET", 2001).string(1)).isEqualTo("RESERVED");
    }

    @Test
    void restoreWithOverwriteReplacesARecordWhoseLinesCarryNoEpochs() {
        // A record written before lines carried their epochs ("sku|qty|bucket"): no line of it was
        // made under the epochs given, so the database's copy replaces it (as FORGET removes it).
        OrderId order = ScriptFixture.order();
        reserved(order, "A|1|2");

        Reply reply = restore(order, 2000, "CANCELLED", "A|1|2|3", true);

        assertThat(reply.status()).isEqualTo("OK");
        assertThat(order(order, "GET", 2001).string(1)).isEqualTo("CANCELLED");
    }

    @Test
    void forgetRemovesARecordMadeUnderAnotherEpoch() {
        OrderId order = ScriptFixture.order();
        reserved(order, "A|1|2|3;B|2|0|5");

        assertThat(order(order, "FORGET", 2000, "A|0|0|4;B|0|0|5").status()).isEqualTo("OK");

        assertThat(order(order, "GET", 2001).status()).isEqualTo("NONE");
        assertThat(open(order, "fp", 2002, 0).status()).as("a retry starts afresh").isEqualTo("NEW");
    }

    @Test
    void forgetKeepsARecordWhoseLinesAllCarryTheEpochsOwningTheirSkusNow() {
        OrderId order = ScriptFixture.order();
        reserved(order, "A|1|2|3;B|2|0|5");

        assertThat(order(order, "FORGET", 2000, "B|0|0|5;A|0|0|3").status()).isEqualTo("KEPT");

        assertThat(order(order, "GET", 2001).string(1)).isEqualTo("RESERVED");
    }

    @Test
    void forgetKeepsAnOpeningRecordAndAnswersKeptForNoRecord() {
        OrderId opening = ScriptFixture.order();
        open(opening, "fp", 1000, 901000);

        assertThat(order(opening, "FORGET", 2000, "A|0|0|9").status()).isEqualTo("KEPT");
        assertThat(order(opening, "GET", 2001).string(1)).isEqualTo("OPENING");
        assertThat(order(ScriptFixture.order(), "FORGET", 2000, "A|0|0|9").status()).isEqualTo("KEPT");
    }

    @Test
    void forgetRemovesARecordWithoutLinesAndOneWhoseLinesCarryNoEpochs() {
        OrderId tombstone = ScriptFixture.order();
        order(tombstone, "CANCEL", 1000, "3600");
        OrderId oldFormat = ScriptFixture.order();
        reserved(oldFormat, "A|1|2");

        assertThat(order(tombstone, "FORGET", 2000, "A|0|0|3").status()).isEqualTo("OK");
        assertThat(order(oldFormat, "FORGET", 2000, "A|0|0|3").status()).isEqualTo("OK");

        assertThat(order(tombstone, "GET", 2001).status()).isEqualTo("NONE");
        assertThat(order(oldFormat, "GET", 2001).status()).isEqualTo("NONE");
    }
}
