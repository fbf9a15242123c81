package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.reservation.ReservationState;
import io.stockguard.reservation.ReservationState.Settlement;
import io.stockguard.stock.OrderId;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The hot store's order script mirrors {@link ReservationState}: from every state an order record
 * can rest in, each settlement goes ahead ({@code GO}) exactly when the one definition allows it,
 * and answers that nothing is left to do when the order is already where the settlement leads.
 */
class OrderScriptFollowsReservationStateIT {

    private static final long CREATED = 1_000;
    private static final long HOLD_ENDS = 901_000;
    @RegisterExtension
    static final ScriptFixture redis = new ScriptFixture();

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (ReservationState state : ReservationState.values()) {
            for (Settlement settlement : Settlement.values()) {
                cases.add(Arguments.of(state, settlement));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} --{1}")
    @MethodSource("cases")
    void goesAheadExactlyWhenTheStateAllowsIt(ReservationState state, Settlement settlement) {
        OrderId order = ScriptFixture.order();
        restore(order, state);
        // Expiry is decided when the hold has ended; the others before it ends.
        long now = settlement == Settlement.EXPIRE ? HOLD_ENDS + 1 : CREATED + 1;

        Reply decided = decide(order, settlement, now);

        boolean allowed = state.after(settlement).isPresent();
        assertThat(decided.status()).as("order.lua %s from %s", settlement, state).isEqualTo(allowed ? "GO"
                : expectedRefusal(state, settlement));
    }

    /** What the script answers where the definition says no. */
    private static String expectedRefusal(ReservationState state, Settlement settlement) {
        return switch (settlement) {
            case CONFIRM -> switch (state) {
                case CONFIRMED -> "DONE";
                case CANCELLED -> "CANCELLED";
                case EXPIRED -> "EXPIRED";
                case RESERVED -> throw new IllegalStateException("allowed");
            };
            case CANCEL -> "DONE";
            case EXPIRE -> "SKIP";
        };
    }

    private static void restore(OrderId order, ReservationState state) {
        redis.run(Script.ORDER, List.of(Keys.order(order)), List.of("RESTORE", Long.toString(CREATED), state.name(),
                "fp", "A|1", "A|1|0|1", Long.toString(CREATED), Long.toString(HOLD_ENDS), "", "3600", "1"));
    }

    private static Reply decide(OrderId order, Settlement settlement, long now) {
        List<String> arguments = new ArrayList<>(List.of(settlement.name(), Long.toString(now)));
        if (settlement == Settlement.CANCEL) {
            arguments.addAll(List.of("3600", "30000"));
        }
        return redis.run(Script.ORDER, List.of(Keys.order(order)), arguments);
    }
}
