package io.stockguard.reservation.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.stock.OrderId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** order.lua: the order record's state machine, idempotency gate and tombstones. */
class OrderScriptIT {

    private static ScriptFixture redis;

    @BeforeAll
    static void start() {
        redis = new ScriptFixture();
    }

    @AfterAll
    static void stop() {
        redis.close();
    }

    private static Reply order(OrderId order, String op, long now, String... rest) {
        List<String> arguments = new ArrayList<>(List.of(op, Long.toString(now)));
        arguments.addAll(List.of(rest));
        return redis.run(Script.ORDER, List.of(Keys.order(order)), arguments);
    }

    private static Reply open(OrderId order, String fingerprint, long now, long holdEnds) {
        return order(order, "OPEN", now, fingerprint, "A|1;B|2", Long.toString(holdEnds), "trace", "3600", "30000");
    }

    @Test
    void opensClosesAndReplaysTheOriginalOutcome() {
        OrderId order = ScriptFixture.order();
        assertThat(open(order, "fp", 1000, 901000).status()).isEqualTo("NEW");
        assertThat(open(order, "fp", 1001, 901000).status()).as("a concurrent retry").isEqualTo("BUSY");
        assertThat(open(order, "other", 1001, 901000).status()).isEqualTo("CONFLICT");
        assertThat(order(order, "CLOSE", 1002, "RESERVED", "A|1|3;B|2|0").status()).isEqualTo("OK");

        Reply replay = open(order, "fp", 2000, 901000);

        assertThat(replay.values()).containsExactly("DONE", "RESERVED", "1000", "901000", "trace", "A|1|3;B|2|0");
    }

    @Test
    void aStaleOpeningIsTakenOverAndAnAbortForgetsTheOrder() {
        OrderId stale = ScriptFixture.order();
        open(stale, "fp", 1000, 0);
        assertThat(open(stale, "fp", 1000 + 30_001, 0).status()).isEqualTo("RESUME");

        OrderId refused = ScriptFixture.order();
        open(refused, "fp", 1000, 0);
        assertThat(order(refused, "ABORT", 1001).status()).isEqualTo("OK");
        assertThat(open(refused, "fp", 1002, 0).status()).as("a retry starts afresh").isEqualTo("NEW");
    }

    @Test
    void cancelOfAnUnknownOrderLeavesATombstoneThatRefusesALateReserve() {
        OrderId order = ScriptFixture.order();
        assertThat(order(order, "CANCEL", 1000, "3600").status()).isEqualTo("TOMBSTONE");
        assertThat(open(order, "fp", 1001, 0).status()).isEqualTo("CANCELLED");
        assertThat(order(order, "CANCEL", 1002, "3600").values()).containsExactly("DONE", "CANCELLED");
    }

    @Test
    void confirmIsRefusedAfterTheHoldEndsAndExpiryOnlyTakesDueOrders() {
        OrderId order = ScriptFixture.order();
        open(order, "fp", 1000, 5000);
        order(order, "CLOSE", 1001, "RESERVED", "A|1|0;B|2|0");

        assertThat(order(order, "EXPIRE", 4999).status()).isEqualTo("SKIP");
        assertThat(order(order, "CONFIRM", 5000).status()).isEqualTo("EXPIRED");
        Reply expire = order(order, "EXPIRE", 5000);
        assertThat(expire.values()).containsExactly("GO", "A|1;B|2");
        assertThat(order(order, "FINISH", 5001, "EXPIRED").status()).isEqualTo("OK");
        assertThat(order(order, "GET", 5002).string(1)).isEqualTo("EXPIRED");
    }

    @Test
    void confirmAndCancelMoveThroughTheirTransitionalStates() {
        OrderId order = ScriptFixture.order();
        open(order, "fp", 1000, 0);
        order(order, "CLOSE", 1001, "CONFIRMED", "A|1|0;B|2|0");
        assertThat(order(order, "CONFIRM", 1002).status()).isEqualTo("DONE");

        assertThat(order(order, "CANCEL", 1003, "3600").values()).containsExactly("GO", "A|1;B|2");
        assertThat(open(order, "fp", 1004, 0).status()).as("a reserve during the cancel").isEqualTo("CANCELLED");
        assertThat(order(order, "CANCEL", 1005, "3600").status()).as("a resumed cancel").isEqualTo("GO");
        assertThat(order(order, "FINISH", 1006, "CANCELLED").status()).isEqualTo("OK");
        assertThat(order(order, "FINISH", 1007, "CONFIRMED").status()).isEqualTo("STATE");
    }

    @Test
    void restoreWritesBackALostRecordButNotOverAPresentOneUnlessTold() {
        OrderId order = ScriptFixture.order();
        List<String> record = List.of("RESERVED", "restored", "A|1", "A|1|2", "1000", "901000", "", "3600");
        List<String> keep = new ArrayList<>(record);
        keep.add("0");
        assertThat(order(order, "RESTORE", 1000, keep.toArray(String[]::new)).status()).isEqualTo("OK");
        assertThat(order(order, "RESTORE", 1000, keep.toArray(String[]::new)).status()).isEqualTo("PRESENT");
        List<String> overwrite = new ArrayList<>(record);
        overwrite.set(0, "CANCELLED");
        overwrite.add("1");
        assertThat(order(order, "RESTORE", 1001, overwrite.toArray(String[]::new)).status()).isEqualTo("OK");
        assertThat(order(order, "GET", 1002).string(1)).isEqualTo("CANCELLED");
    }
}
