package io.stockguard.chaos.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.chaos.history.Op;
import io.stockguard.client.Problem;
import io.stockguard.client.Refused;
import io.stockguard.client.Reservation;
import io.stockguard.client.ReservationState;
import io.stockguard.client.ReservedLine;
import io.stockguard.client.Throttled;
import io.stockguard.client.Unresolved;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How the Java client's outcomes enter the history: what the checker then holds them to. */
class JavaClientCallsTest {

    private static final Instant NOW = Instant.parse("2026-11-11T00:00:00Z");

    @Test
    void aNewReservationIsAcknowledgedAsCreatedAndAReplayAsReplayed() {
        Op created = describe("reserve", reservation(false));
        Op replayed = describe("reserve", reservation(true));

        assertThat(created.type()).isEqualTo(Op.Type.OK);
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.replayed()).isFalse();
        assertThat(created.state()).isEqualTo("RESERVED");
        assertThat(created.lines()).containsExactly(new Op.Line("HOT", 2));
        assertThat(replayed.status()).isEqualTo(200);
        assertThat(replayed.replayed()).isTrue();
        assertThat(describe("confirm", reservation(false)).status()).isEqualTo(200);
    }

    @Test
    void aRefusalIsRecordedWithItsStatusAndCode() {
        Op refused = describe("reserve", new Refused(problem(409, "INSUFFICIENT_STOCK")));
        Op throttled = describe("reserve", new Throttled(problem(429, "THROTTLED"), Duration.ofSeconds(1)));

        assertThat(refused.type()).isEqualTo(Op.Type.FAIL);
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.code()).isEqualTo("INSUFFICIENT_STOCK");
        assertThat(throttled.type()).isEqualTo(Op.Type.FAIL);
        assertThat(throttled.status()).isEqualTo(429);
    }

    /**
     * The client's claim that nothing was applied becomes a refusal in the history, which the
     * not-applied rule then checks against the final state; a call that may have applied is in doubt.
     */
    @Test
    void anUnresolvedCallIsARefusalOnlyWhenTheClientSaysItCertainlyDidNotApply() {
        Op notApplied = describe("reserve", new Unresolved("503 UNAVAILABLE; gave up after 3 attempts", 3, false,
                Optional.of(problem(503, "UNAVAILABLE")), Optional.of(Duration.ofSeconds(1))));
        Op inDoubt = describe("reserve", new Unresolved("no answer within PT5S", 2, true, Optional.empty(),
                Optional.empty()));

        assertThat(notApplied.type()).isEqualTo(Op.Type.FAIL);
        assertThat(notApplied.status()).isEqualTo(503);
        assertThat(notApplied.code()).isEqualTo("UNAVAILABLE");
        assertThat(notApplied.detail()).contains("3 attempts");
        assertThat(inDoubt.type()).isEqualTo(Op.Type.INFO);
        assertThat(inDoubt.status()).isZero();
        assertThat(JavaClientCalls.ended(new Unresolved("x", 1, true, Optional.empty(), Optional.empty()))).isFalse();
    }

    private static Op describe(String f, io.stockguard.client.OrderOutcome outcome) {
        Op invoked = new Op(0, "c1-java", Op.Type.INVOKE, f, 0, "a-1", "o1", List.of(new Op.Line("HOT", 2)), false,
                60L, null, null, null, null, null, null, null, null, null, null);
        Op completion = new Op(1, invoked.process(), JavaClientCalls.type(outcome), f, 1, "a-1", "o1",
                invoked.lines(), false, 60L, null, null, null, null, null, null, null, null, null, null);
        return JavaClientCalls.describe(completion, outcome);
    }

    private static Reservation reservation(boolean replayed) {
        return new Reservation("o1", ReservationState.RESERVED, List.of(new ReservedLine("HOT", 2, 0)), NOW,
                NOW.plusSeconds(60), null, null, "trace", 0, null, replayed);
    }

    private static Problem problem(int status, String code) {
        return new Problem(status, code, code, "detail of " + code, "trace", Map.of());
    }
}
