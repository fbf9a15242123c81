package io.stockguard.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.platform.ProblemCode;
import io.stockguard.reservation.ReservationState.Settlement;
import io.stockguard.stock.OrderId;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The one definition of an order's transitions, state by state and settlement by settlement. */
class ReservationStateTest {

    static Stream<Arguments> transitions() {
        return Stream.of(
                Arguments.of(ReservationState.RESERVED, Settlement.CONFIRM, ReservationState.CONFIRMED),
                Arguments.of(ReservationState.RESERVED, Settlement.CANCEL, ReservationState.CANCELLED),
                Arguments.of(ReservationState.RESERVED, Settlement.EXPIRE, ReservationState.EXPIRED),
                Arguments.of(ReservationState.CONFIRMED, Settlement.CONFIRM, null),
                Arguments.of(ReservationState.CONFIRMED, Settlement.CANCEL, ReservationState.CANCELLED),
                Arguments.of(ReservationState.CONFIRMED, Settlement.EXPIRE, null),
                Arguments.of(ReservationState.CANCELLED, Settlement.CONFIRM, null),
                Arguments.of(ReservationState.CANCELLED, Settlement.CANCEL, null),
                Arguments.of(ReservationState.CANCELLED, Settlement.EXPIRE, null),
                Arguments.of(ReservationState.EXPIRED, Settlement.CONFIRM, null),
                Arguments.of(ReservationState.EXPIRED, Settlement.CANCEL, null),
                Arguments.of(ReservationState.EXPIRED, Settlement.EXPIRE, null));
    }

    @ParameterizedTest(name = "{0} --{1}--> {2}")
    @MethodSource("transitions")
    void allowsOnlyTheDefinedTransitions(ReservationState from, Settlement settlement, ReservationState to) {
        assertThat(from.after(settlement).orElse(null)).isEqualTo(to);
    }

    @ParameterizedTest(name = "{0} holds stock")
    @MethodSource("transitions")
    void holdsStockOnlyWhileReservedOrConfirmed(ReservationState state, Settlement unused, ReservationState ignored) {
        assertThat(state.holdsStock()).isEqualTo(state == ReservationState.RESERVED
                || state == ReservationState.CONFIRMED);
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                Arguments.of(ReservationState.CONFIRMED, ProblemCode.ORDER_CONFIRMED),
                Arguments.of(ReservationState.CANCELLED, ProblemCode.ORDER_CANCELLED),
                Arguments.of(ReservationState.EXPIRED, ProblemCode.ORDER_EXPIRED));
    }

    @ParameterizedTest(name = "an order {0} refuses with {1}")
    @MethodSource("refusals")
    void anOrderThatMovedOnRefusesWithItsState(ReservationState state, ProblemCode code) {
        Refusal refusal = Refusal.movedOn(OrderId.of("o-1"), state);
        assertThat(refusal.code()).isEqualTo(code);
        assertThat(refusal.detail()).contains("o-1");
    }

    @org.junit.jupiter.api.Test
    void aHeldOrderHasNoRefusalForItsState() {
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> Refusal.movedOn(OrderId.of("o-1"), ReservationState.RESERVED));
    }
}
