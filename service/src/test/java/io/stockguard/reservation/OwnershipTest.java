package io.stockguard.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.reservation.Ownership.Database;
import io.stockguard.reservation.Ownership.Draining;
import io.stockguard.reservation.Ownership.Hot;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every transition of the ownership state machine from every state, and every refusal. */
class OwnershipTest {

    private static final Instant T0 = Instant.parse("2026-11-11T00:00:00Z");
    private static final Duration DELAY = Duration.ofSeconds(4);
    private static final Duration RELOAD_AFTER = Duration.ofSeconds(2);

    static Stream<Arguments> loads() {
        return Stream.of(
                Arguments.of(new Database(0), "moved", new Hot(1)),
                Arguments.of(new Database(7), "moved", new Hot(8)),
                // taken over long enough ago
                Arguments.of(new Database(7, T0.minus(RELOAD_AFTER)), "moved", new Hot(8)),
                // taken over a moment ago: not passed back and forth on every request
                Arguments.of(new Database(7, T0.minus(RELOAD_AFTER).plusMillis(1)), "refused",
                        new Database(7, T0.minus(RELOAD_AFTER).plusMillis(1))),
                Arguments.of(new Hot(3), "unchanged", new Hot(3)),
                Arguments.of(new Draining(3, T0), "refused", new Draining(3, T0)));
    }

    @ParameterizedTest(name = "load from {0}: {1}")
    @MethodSource("loads")
    void loadsOnlyFromTheDatabaseUnderANewEpoch(Ownership from, String kind, Ownership after) {
        assertStep(from.load(T0, RELOAD_AFTER), kind, after);
    }

    static Stream<Arguments> takeOvers() {
        return Stream.of(
                Arguments.of(new Hot(3), "moved", new Draining(3, T0)),
                Arguments.of(new Draining(3, T0.minusSeconds(1)), "unchanged", new Draining(3, T0.minusSeconds(1))),
                Arguments.of(new Database(3), "unchanged", new Database(3)),
                Arguments.of(new Database(0), "unchanged", new Database(0)));
    }

    @ParameterizedTest(name = "take over from {0}: {1}")
    @MethodSource("takeOvers")
    void takesOverOnlyAHotStoreAndKeepsWhenItBegan(Ownership from, String kind, Ownership after) {
        assertStep(from.takeOver(T0), kind, after);
    }

    static Stream<Arguments> drains() {
        return Stream.of(
                // the delay has passed and the journal is applied: the database sells
                Arguments.of(new Draining(3, T0), T0.plus(DELAY), true, "moved", new Database(3, T0)),
                // an instance may still sell on what it last knew
                Arguments.of(new Draining(3, T0), T0.plus(DELAY).minusMillis(1), true, "refused", new Draining(3, T0)),
                // the journal has not caught up
                Arguments.of(new Draining(3, T0), T0.plus(DELAY), false, "refused", new Draining(3, T0)),
                Arguments.of(new Database(3), T0, false, "unchanged", new Database(3)),
                Arguments.of(new Hot(3), T0.plus(DELAY), true, "refused", new Hot(3)));
    }

    @ParameterizedTest(name = "finish draining {0} at {1}, journal applied {2}: {3}")
    @MethodSource("drains")
    void finishesDrainingOnlyAfterTheDelayAndTheJournal(Ownership from, Instant now, boolean applied, String kind,
            Ownership after) {
        assertStep(from.finishDrain(now, DELAY, applied), kind, after);
    }

    static Stream<Arguments> hotChanges() {
        return Stream.of(
                Arguments.of(new Hot(3), 3L, false, true),
                Arguments.of(new Hot(3), 3L, true, true),
                Arguments.of(new Hot(3), 2L, true, false),
                Arguments.of(new Hot(3), 4L, true, false),
                // Kafka: acknowledged before the hand-over settled, so applied
                Arguments.of(new Draining(3, T0), 3L, true, true),
                // synchronous journal: never acknowledged, so refused
                Arguments.of(new Draining(3, T0), 3L, false, false),
                Arguments.of(new Draining(3, T0), 2L, true, false),
                Arguments.of(new Database(3), 3L, true, false),
                Arguments.of(new Database(3), 3L, false, false));
    }

    @ParameterizedTest(name = "{0} applies a change of epoch {1} (journal behind {2}): {3}")
    @MethodSource("hotChanges")
    void appliesOnlyTheOwnersChanges(Ownership state, long epoch, boolean journalBehind, boolean accepted) {
        assertThat(state.acceptsHotChange(epoch, journalBehind)).isEqualTo(accepted);
    }

    static Stream<Arguments> stored() {
        return Stream.of(
                Arguments.of(new Database(5), Ownership.Seller.DATABASE),
                Arguments.of(new Database(5, T0), Ownership.Seller.DATABASE),
                Arguments.of(new Hot(5), Ownership.Seller.HOT),
                Arguments.of(new Draining(5, T0), Ownership.Seller.NOBODY));
    }

    @ParameterizedTest(name = "{0} is stored and read back; sold by {1}")
    @MethodSource("stored")
    void isStoredByNameAndSaysWhoSells(Ownership state, Ownership.Seller seller) {
        assertThat(Ownership.of(state.state(), state.epoch(), state.since())).isEqualTo(state);
        assertThat(state.seller()).isEqualTo(seller);
    }

    private static void assertStep(Ownership.Step step, String kind, Ownership after) {
        switch (kind) {
            case "moved" -> assertThat(step).isInstanceOfSatisfying(Ownership.Moved.class,
                    moved -> assertThat(moved.to()).isEqualTo(after));
            case "unchanged" -> assertThat(step).isInstanceOfSatisfying(Ownership.Unchanged.class,
                    unchanged -> assertThat(unchanged.state()).isEqualTo(after));
            case "refused" -> assertThat(step).isInstanceOfSatisfying(Ownership.Refused.class, refused -> {
                assertThat(refused.state()).isEqualTo(after);
                assertThat(refused.why()).isNotBlank();
            });
            default -> throw new IllegalArgumentException(kind);
        }
    }
}
