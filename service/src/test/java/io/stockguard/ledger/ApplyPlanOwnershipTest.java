package io.stockguard.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockOp;
import io.stockguard.reservation.Ownership;
import io.stockguard.reservation.ReservationState;
import io.stockguard.reservation.ReservedLine;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.SkuMode;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The database's side of the ownership protocol (I1 across a hand-over): a change the hot store
 * journaled applies only when {@link Ownership#acceptsHotChange} says its epoch may change the SKU
 * now, for sales, settlements and stock changes alike; an order's changes are refused together;
 * settlements follow the order's state machine; a reissued stamp is a regression before it is a
 * repeat.
 */
class ApplyPlanOwnershipTest {

    private static final Instant NOW = Instant.parse("2026-11-11T00:00:00Z");
    private static final SkuId A = SkuId.of("own-a");
    private static final SkuId B = SkuId.of("own-b");
    /** Every bucket starts with this much available, reserved and sold, so that every change fits. */
    private static final long STOCK = 10;

    /**
     * Owner state × the epoch of the event × whether the journal is applied behind its
     * acknowledgement (Kafka), and whether the change applies.
     */
    static Stream<Arguments> ownership() {
        Ownership hot = new Ownership.Hot(3);
        Ownership draining = new Ownership.Draining(3, NOW.minusSeconds(1));
        Ownership database = new Ownership.Database(3);
        return Stream.of(
                Arguments.of(hot, 3L, false, true),
                Arguments.of(hot, 3L, true, true),
                Arguments.of(hot, 2L, false, false),
                Arguments.of(hot, 2L, true, false),
                Arguments.of(hot, 4L, false, false),
                Arguments.of(hot, 4L, true, false),
                Arguments.of(draining, 3L, false, false),
                Arguments.of(draining, 3L, true, true),
                Arguments.of(draining, 2L, false, false),
                Arguments.of(draining, 2L, true, false),
                Arguments.of(draining, 4L, false, false),
                Arguments.of(draining, 4L, true, false),
                Arguments.of(database, 3L, false, false),
                Arguments.of(database, 3L, true, false),
                Arguments.of(database, 2L, true, false),
                Arguments.of(database, 4L, true, false),
                Arguments.of(new Ownership.Database(0), 1L, true, false));
    }

    @ParameterizedTest(name = "owner {0}, sale at epoch {1}, journal behind {2}: applies {3}")
    @MethodSource("ownership")
    void aSaleAppliesOnlyWhenItsEpochMayChangeTheSku(Ownership owner, long epoch, boolean behind, boolean applies) {
        Given given = new Given().sku(A, owner).journalBehind(behind);
        StockEvent sale = reserve("e1", A, "o1", 2, epoch, 1);

        ApplyPlan plan = given.plan(sale);

        assertApplied(plan, plan.decide(sale), applies);
        if (applies) {
            assertThat(plan.newHeaders()).extracting(ReservationRows.Header::state)
                    .containsExactly(ReservationState.RESERVED);
            assertThat(plan.newLines()).containsKey(OrderId.of("o1"));
        } else {
            assertThat(plan.newHeaders()).isEmpty();
            assertThat(plan.newLines()).isEmpty();
        }
    }

    @ParameterizedTest(name = "owner {0}, settlement at epoch {1}, journal behind {2}: applies {3}")
    @MethodSource("ownership")
    void aSettlementAppliesOnlyWhenItsEpochMayChangeTheSku(Ownership owner, long epoch, boolean behind,
            boolean applies) {
        Given given = new Given().sku(A, owner).journalBehind(behind).order("o1", ReservationState.RESERVED, A);
        StockEvent cancel = settle("e1", StockOp.CANCEL, A, "o1", ReservationState.RESERVED, epoch, 2);

        ApplyPlan plan = given.plan(cancel);

        assertApplied(plan, plan.decide(cancel), applies);
        assertThat(plan.changedHeaders()).extracting(ReservationRows.Header::state)
                .containsExactlyElementsOf(applies ? List.of(ReservationState.CANCELLED) : List.of());
    }

    @ParameterizedTest(name = "owner {0}, stock change at epoch {1}, journal behind {2}: applies {3}")
    @MethodSource("ownership")
    void aStockChangeAppliesOnlyWhenItsEpochMayChangeTheSku(Ownership owner, long epoch, boolean behind,
            boolean applies) {
        Given given = new Given().sku(A, owner).journalBehind(behind);
        StockEvent restock = stock("e1", StockOp.RESTOCK, A, 5, epoch, 1);
        StockEvent removal = stock("e2", StockOp.ADJUST, A, -3, epoch, 2);

        ApplyPlan plan = given.plan(restock, removal);

        EventOutcome first = plan.decide(restock);
        EventOutcome second = plan.decide(removal);
        if (applies) {
            assertThat(List.of(first, second)).containsOnly(EventOutcome.Settled.APPLIED);
            assertThat(plan.sets().get(A).changes()).singleElement()
                    .satisfies(change -> assertThat(change.available()).isEqualTo(2));
            assertThat(plan.anomalies()).isEmpty();
        } else {
            assertThat(List.of(first, second)).allSatisfy(outcome -> assertFenced(outcome));
            assertThat(plan.applied()).isEmpty();
            assertThat(plan.sets().get(A).changes()).isEmpty();
            assertThat(plan.anomalies()).extracting(Anomaly::kind).containsExactly("FENCED", "FENCED");
        }
    }

    /** The database's own changes carry no epoch: they are its own whoever sells. */
    @ParameterizedTest(name = "owner {0}")
    @MethodSource("owners")
    void aChangeTheDatabaseMadeIsNeverFenced(Ownership owner) {
        Given given = new Given().sku(A, owner).journalBehind(false);
        StockEvent restock = new StockEvent("e1", A, 0, StockOp.RESTOCK, null, "rq-1", 4, 4, 0, 0, null, "test", NOW,
                null, null, null, null, null, null);

        ApplyPlan plan = given.plan(restock);

        assertThat(plan.decide(restock)).isEqualTo(EventOutcome.Settled.APPLIED);
        assertThat(plan.anomalies()).isEmpty();
    }

    static Stream<Ownership> owners() {
        return Stream.of(new Ownership.Hot(3), new Ownership.Draining(3, NOW), new Ownership.Database(3));
    }

    @Test
    void oneFencedLineRefusesTheWholeOrderSoItCanBeMadeAgainWhole() {
        Given given = new Given().sku(A, new Ownership.Hot(3)).sku(B, new Ownership.Hot(7));
        StockEvent lineA = reserve("e1", A, "o1", 1, 3, 1);
        StockEvent lineB = reserve("e2", B, "o1", 1, 6, 1);
        StockEvent otherOrder = reserve("e3", A, "o2", 2, 3, 2);

        ApplyPlan plan = given.plan(lineA, lineB, otherOrder);

        assertFenced(plan.decide(lineA));
        assertFenced(plan.decide(lineB));
        assertThat(plan.decide(otherOrder)).isEqualTo(EventOutcome.Settled.APPLIED);
        assertThat(plan.applied()).extracting(StockEvent::eventId).containsExactly("e3");
        assertThat(plan.anomalies()).as("the anomaly is the fenced line's alone").extracting(Anomaly::eventId)
                .containsExactly("e2");
        assertThat(plan.newLines()).containsOnlyKeys(OrderId.of("o2"));
    }

    @Test
    void oneFencedLineRefusesTheWholeSettlementOfTheOrder() {
        Given given = new Given().sku(A, new Ownership.Hot(3)).sku(B, new Ownership.Draining(7, NOW))
                .journalBehind(false).order("o1", ReservationState.RESERVED, A, B);
        StockEvent lineA = settle("e1", StockOp.CANCEL, A, "o1", ReservationState.RESERVED, 3, 5);
        StockEvent lineB = settle("e2", StockOp.CANCEL, B, "o1", ReservationState.RESERVED, 7, 5);

        ApplyPlan plan = given.plan(lineA, lineB);

        assertFenced(plan.decide(lineA));
        assertFenced(plan.decide(lineB));
        assertThat(plan.applied()).isEmpty();
        assertThat(plan.changedHeaders()).as("the order stays reserved").isEmpty();
    }

    /** The rule's own table ({@link SettlementRuleTest#settlements}), through the whole plan. */
    @ParameterizedTest(name = "{1} of a {0} order: allowed {2}")
    @MethodSource("io.stockguard.ledger.SettlementRuleTest#settlements")
    void hypothesis4ASettlementTheOrdersStateDoesNotAllowIsAnInvalidTransition(ReservationState state, StockOp op,
            boolean allowed) {
        Given given = new Given().sku(A, new Ownership.Hot(3)).order("o1", state, A);
        if (state == ReservationState.CONFIRMED && op != StockOp.CONFIRM) {
            given.sold("o1", A);
        }
        StockEvent event = settle("e1", op, A, "o1", state, 3, 2);

        ApplyPlan plan = given.plan(event);
        EventOutcome outcome = plan.decide(event);

        if (allowed) {
            assertThat(outcome).isEqualTo(EventOutcome.Settled.APPLIED);
        } else {
            assertRejected(outcome, EventOutcome.Reason.INVALID_TRANSITION);
            assertThat(plan.applied()).isEmpty();
            assertThat(plan.sets().get(A).changes()).isEmpty();
            assertThat(plan.changedHeaders()).isEmpty();
            assertThat(plan.anomalies()).extracting(Anomaly::kind).containsExactly("INVALID_TRANSITION");
        }
    }

    @Test
    void hypothesis4AConfirmOfAnExpiredOrderIsRefusedAsAnInvalidTransition() {
        Given given = new Given().sku(A, new Ownership.Hot(3)).order("o1", ReservationState.EXPIRED, A);
        StockEvent confirm = settle("e1", StockOp.CONFIRM, A, "o1", ReservationState.RESERVED, 3, 2);

        ApplyPlan plan = given.plan(confirm);

        assertRejected(plan.decide(confirm), EventOutcome.Reason.INVALID_TRANSITION);
        assertThat(plan.sets().get(A).changes()).as("nothing sold").isEmpty();
        assertThat(plan.changedHeaders()).isEmpty();
    }

    /**
     * Seen in the chaos suite (full tier, a broker killed): a confirm went to Kafka, the cancel that
     * followed it to the database fallback, and the cancel applied first, taking 3 sold units from
     * the database's sold while the line was still reserved there; the confirm was then refused.
     */
    @Test
    void aCancelOfASaleThatOvertookTheSaleWaitsForIt() {
        Given given = new Given().sku(A, new Ownership.Hot(3)).order("o1", ReservationState.RESERVED, A);
        StockEvent cancel = settle("e2", StockOp.CANCEL, A, "o1", ReservationState.CONFIRMED, 3, 3);

        ApplyPlan plan = given.plan(cancel);

        assertThat(plan.decide(cancel)).isEqualTo(EventOutcome.Settled.DEFERRED);
        assertThat(plan.sets().get(A).changes()).as("nothing taken from sold").isEmpty();
        assertThat(plan.changedHeaders()).isEmpty();
        assertThat(plan.newWaits()).extracting(w -> w.event().eventId()).containsExactly("e2");
    }

    @Test
    void theSaleAppliesTheCancelThatWaitedForIt() {
        Given given = new Given().sku(A, new Ownership.Hot(3)).order("o1", ReservationState.RESERVED, A);
        StockEvent cancel = settle("e2", StockOp.CANCEL, A, "o1", ReservationState.CONFIRMED, 3, 3);
        StockEvent confirm = settle("e1", StockOp.CONFIRM, A, "o1", ReservationState.RESERVED, 3, 2);

        ApplyPlan plan = given.plan(cancel, confirm);

        assertThat(plan.decide(cancel)).isEqualTo(EventOutcome.Settled.DEFERRED);
        assertThat(plan.decide(confirm)).isEqualTo(EventOutcome.Settled.APPLIED);
        assertThat(plan.applied()).extracting(StockEvent::eventId).containsExactly("e1", "e2");
        assertThat(plan.newWaits()).isEmpty();
        assertThat(plan.changedHeaders()).extracting(ReservationRows.Header::state)
                .containsExactly(ReservationState.CANCELLED);
        assertThat(plan.anomalies()).isEmpty();
    }

    /**
     * Seen in the chaos suite (full tier): another line's confirm and cancel reached the database
     * first (another partition) and moved the order to CANCELLED; this line's confirm, its own
     * earlier step, was refused, and its cancel then waited for it for good.
     */
    @Test
    void aLinesConfirmThatReachesAnOrderCancelledAfterItsSaleAppliesAndItsCancelFollows() {
        Given given = new Given().sku(A, new Ownership.Hot(3)).soldThenCancelled("o1", A);
        StockEvent confirm = settle("e1", StockOp.CONFIRM, A, "o1", ReservationState.RESERVED, 3, 2);
        StockEvent cancel = settle("e2", StockOp.CANCEL, A, "o1", ReservationState.CONFIRMED, 3, 3);

        ApplyPlan plan = given.plan(confirm, cancel);

        assertThat(plan.decide(confirm)).isEqualTo(EventOutcome.Settled.APPLIED);
        assertThat(plan.decide(cancel)).isEqualTo(EventOutcome.Settled.APPLIED);
        assertThat(plan.changedHeaders()).as("the order stays cancelled").isEmpty();
        assertThat(plan.anomalies()).isEmpty();
    }

    @Test
    void aLinesCancelThatCameFirstWaitsForItsConfirmEvenAfterTheOrderIsCancelled() {
        Given given = new Given().sku(A, new Ownership.Hot(3)).soldThenCancelled("o1", A);
        StockEvent confirm = settle("e1", StockOp.CONFIRM, A, "o1", ReservationState.RESERVED, 3, 2);
        StockEvent cancel = settle("e2", StockOp.CANCEL, A, "o1", ReservationState.CONFIRMED, 3, 3);

        ApplyPlan plan = given.plan(cancel, confirm);

        assertThat(plan.decide(cancel)).isEqualTo(EventOutcome.Settled.DEFERRED);
        assertThat(plan.decide(confirm)).isEqualTo(EventOutcome.Settled.APPLIED);
        assertThat(plan.applied()).extracting(StockEvent::eventId).containsExactly("e1", "e2");
        assertThat(plan.newWaits()).isEmpty();
        assertThat(plan.changedHeaders()).isEmpty();
    }

    /**
     * Seen in the chaos suite (full tier, Kafka paused): the cancel of a committed reservation
     * overtook the reservation itself (it left a tombstone), the reserve then applied the cancel at
     * once, taking sold units the database did not have, and the confirm was refused.
     */
    @Test
    void aCancelOfASaleThatOvertookTheReservationWaitsForTheSaleToo() {
        Given given = new Given().sku(A, new Ownership.Hot(3));
        StockEvent reserve = reserve("e1", A, "o1", 2, 3, 1);
        StockEvent confirm = settle("e2", StockOp.CONFIRM, A, "o1", ReservationState.RESERVED, 3, 2);
        StockEvent cancel = settle("e3", StockOp.CANCEL, A, "o1", ReservationState.CONFIRMED, 3, 3);

        ApplyPlan plan = given.plan(cancel, reserve, confirm);

        assertThat(plan.decide(cancel)).isEqualTo(EventOutcome.Settled.DEFERRED);
        assertThat(plan.decide(reserve)).isEqualTo(EventOutcome.Settled.APPLIED);
        assertThat(plan.applied()).as("the cancel still waits for the sale").extracting(StockEvent::eventId)
                .containsExactly("e1");
        assertThat(plan.decide(confirm)).isEqualTo(EventOutcome.Settled.APPLIED);
        assertThat(plan.applied()).extracting(StockEvent::eventId).containsExactly("e1", "e2", "e3");
        assertThat(plan.newWaits()).isEmpty();
        assertThat(plan.newHeaders()).extracting(ReservationRows.Header::state)
                .containsExactly(ReservationState.CANCELLED);
        assertThat(plan.anomalies()).isEmpty();
    }

    @Test
    void aCancelOfASaleTheDatabaseHasAppliesAtOnce() {
        Given given = new Given().sku(A, new Ownership.Hot(3)).order("o1", ReservationState.CONFIRMED, A)
                .sold("o1", A);
        StockEvent cancel = settle("e2", StockOp.CANCEL, A, "o1", ReservationState.CONFIRMED, 3, 3);

        ApplyPlan plan = given.plan(cancel);

        assertThat(plan.decide(cancel)).isEqualTo(EventOutcome.Settled.APPLIED);
    }

    @Test
    void aSecondLineOfTheSameCancelAppliesAfterTheFirstMovedTheOrder() {
        Given given = new Given().sku(A, new Ownership.Hot(3)).sku(B, new Ownership.Hot(5))
                .order("o1", ReservationState.RESERVED, A, B);
        StockEvent lineA = settle("e1", StockOp.CANCEL, A, "o1", ReservationState.RESERVED, 3, 2);
        StockEvent lineB = settle("e2", StockOp.CANCEL, B, "o1", ReservationState.RESERVED, 5, 2);

        ApplyPlan plan = given.plan(lineA, lineB);

        assertThat(plan.decide(lineA)).isEqualTo(EventOutcome.Settled.APPLIED);
        assertThat(plan.decide(lineB)).isEqualTo(EventOutcome.Settled.APPLIED);
        assertThat(plan.changedHeaders()).extracting(ReservationRows.Header::state)
                .containsExactly(ReservationState.CANCELLED);
        assertThat(plan.anomalies()).isEmpty();
    }

    @Test
    void aSecondLineOfAnotherSettlementAfterTheFirstMovedTheOrderIsAnInvalidTransition() {
        Given given = new Given().sku(A, new Ownership.Hot(3)).sku(B, new Ownership.Hot(5))
                .order("o1", ReservationState.RESERVED, A, B);
        StockEvent cancelA = settle("e1", StockOp.CANCEL, A, "o1", ReservationState.RESERVED, 3, 2);
        StockEvent expireB = settle("e2", StockOp.EXPIRE, B, "o1", ReservationState.RESERVED, 5, 2);

        ApplyPlan plan = given.plan(cancelA, expireB);

        assertThat(plan.decide(cancelA)).isEqualTo(EventOutcome.Settled.APPLIED);
        assertRejected(plan.decide(expireB), EventOutcome.Reason.INVALID_TRANSITION);
        assertThat(plan.applied()).extracting(StockEvent::eventId).containsExactly("e1");
    }

    @Test
    void hypothesis11AReissuedStampOfAReserveAlreadyAppliedIsARegressionNotARepeat() {
        Given given = new Given().sku(A, new Ownership.Hot(3)).order("o1", ReservationState.RESERVED, A)
                .appliedOrderOp("o1|" + A.value() + "|RESERVE").stamp(new Stamp(A, 0, 3, 1), "e-lost");
        StockEvent retry = reserve("e-retry", A, "o1", 2, 3, 1);

        ApplyPlan plan = given.plan(retry);

        assertRejected(plan.decide(retry), EventOutcome.Reason.REGRESSION);
        assertThat(plan.anomalies()).extracting(Anomaly::kind).containsExactly("REGRESSION");
        assertThat(plan.applied()).isEmpty();
    }

    @Test
    void aReserveAlreadyAppliedUnderAFreshStampIsARepeatedOperation() {
        Given given = new Given().sku(A, new Ownership.Hot(3)).appliedOrderOp("o1|" + A.value() + "|RESERVE")
                .stamp(new Stamp(A, 0, 3, 1), "e-first");
        StockEvent again = reserve("e-again", A, "o1", 2, 3, 2);

        ApplyPlan plan = given.plan(again);

        assertRejected(plan.decide(again), EventOutcome.Reason.INVALID_TRANSITION);
        assertThat(plan.applied()).isEmpty();
    }

    @Test
    void theSameEventAgainIsADuplicateNotARegression() {
        Given given = new Given().sku(A, new Ownership.Hot(3)).known("e1")
                .stamp(new Stamp(A, 0, 3, 1), "e1");
        StockEvent again = reserve("e1", A, "o1", 2, 3, 1);

        assertThat(given.plan(again).decide(again)).isEqualTo(EventOutcome.Settled.DUPLICATE);
    }

    @Test
    void aRefusedOrderAnswersEveryOneOfItsEventsWithThatSameRefusal() {
        EventOutcome.Rejected refusal = new EventOutcome.Rejected(EventOutcome.Reason.WOULD_GO_NEGATIVE,
                "bucket 0 cannot take RESERVE of 2");
        Given given = new Given().sku(A, new Ownership.Hot(3)).sku(B, new Ownership.Database(6))
                .refused("o1", refusal);
        StockEvent lineA = reserve("e1", A, "o1", 2, 3, 1);
        StockEvent lineB = reserve("e2", B, "o1", 2, 6, 1);
        StockEvent confirmA = settle("e3", StockOp.CONFIRM, A, "o1", ReservationState.RESERVED, 3, 2);
        StockEvent otherOrder = reserve("e4", A, "o2", 1, 3, 3);

        ApplyPlan plan = given.plan(lineA, lineB, confirmA, otherOrder);

        assertThat(plan.decide(lineA)).isSameAs(refusal);
        assertThat(plan.decide(lineB)).as("refused as its order, even where it would be fenced").isSameAs(refusal);
        assertThat(plan.decide(confirmA)).isSameAs(refusal);
        assertThat(plan.decide(otherOrder)).isEqualTo(EventOutcome.Settled.APPLIED);
        assertThat(plan.applied()).extracting(StockEvent::eventId).containsExactly("e4");
        assertThat(plan.anomalies()).as("recorded when the refusal was first made").isEmpty();
    }

    @ParameterizedTest
    @EnumSource(value = StockOp.class, names = {"RESTOCK", "ADJUST", "TRANSFER_OUT", "TRANSFER_IN"})
    void aRefusedOrderDoesNotTouchStockChanges(StockOp op) {
        Given given = new Given().sku(A, new Ownership.Hot(3))
                .refused("o1", new EventOutcome.Rejected(EventOutcome.Reason.FENCED, "another line"));
        long delta = op == StockOp.ADJUST || op == StockOp.TRANSFER_OUT ? -1 : 1;
        StockEvent change = stock("e1", op, A, delta, 3, 1);

        assertThat(given.plan(change).decide(change)).isEqualTo(EventOutcome.Settled.APPLIED);
    }

    // ----------------------------------------------------------------------------------------

    private static void assertApplied(ApplyPlan plan, EventOutcome outcome, boolean applies) {
        if (applies) {
            assertThat(outcome).isEqualTo(EventOutcome.Settled.APPLIED);
            assertThat(plan.applied()).hasSize(1);
            assertThat(plan.anomalies()).isEmpty();
        } else {
            assertFenced(outcome);
            assertThat(plan.applied()).isEmpty();
            assertThat(plan.sets().get(A).changes()).as("no counter moves").isEmpty();
            assertThat(plan.anomalies()).extracting(Anomaly::kind).containsExactly("FENCED");
        }
    }

    private static void assertFenced(EventOutcome outcome) {
        assertRejected(outcome, EventOutcome.Reason.FENCED);
    }

    private static void assertRejected(EventOutcome outcome, EventOutcome.Reason reason) {
        assertThat(outcome).isInstanceOfSatisfying(EventOutcome.Rejected.class,
                r -> assertThat(r.reason()).isEqualTo(reason));
    }

    /** What the database holds when a batch arrives, and the plan built on it. */
    private static final class Given {
        private final Map<OrderId, ReservationRows.Header> headers = new HashMap<>();
        private final Map<OrderId, Map<SkuId, ReservedLine>> lines = new HashMap<>();
        private final Set<String> known = new HashSet<>();
        private final Set<String> appliedOrderOps = new HashSet<>();
        private final Map<Stamp, String> stampOwners = new HashMap<>();
        private final Map<SkuId, BucketSet> sets = new HashMap<>();
        private final Map<SkuId, Ownership> owners = new HashMap<>();
        private final Map<OrderId, EventOutcome.Rejected> refusedOrders = new HashMap<>();
        private boolean journalBehind;

        /** A SKU of one bucket holding {@link #STOCK} available, reserved and sold, owned by {@code owner}. */
        Given sku(SkuId sku, Ownership owner) {
            sets.put(sku, BucketSet.of(sku, List.of(new BucketRows.Row(0, STOCK, STOCK, STOCK, SkuMode.NORMAL, 0))));
            owners.put(sku, owner);
            return this;
        }

        Given journalBehind(boolean behind) {
            journalBehind = behind;
            return this;
        }

        /** An order in {@code state} with a line of 2 units in bucket 0 of each SKU, its reserve applied. */
        Given order(String id, ReservationState state, SkuId... skus) {
            OrderId order = OrderId.of(id);
            headers.put(order, new ReservationRows.Header(order, state, "f", NOW, NOW.plusSeconds(900),
                    state == ReservationState.CONFIRMED ? NOW : null, null, null));
            for (SkuId sku : skus) {
                lines.computeIfAbsent(order, k -> new HashMap<>()).put(sku, new ReservedLine(sku, 2, 0));
                appliedOrderOps.add(id + "|" + sku.value() + "|RESERVE");
            }
            return this;
        }

        /** An order that was sold, then cancelled, with a line of 2 units on each SKU, none settled yet. */
        Given soldThenCancelled(String id, SkuId... skus) {
            order(id, ReservationState.RESERVED, skus);
            OrderId order = OrderId.of(id);
            headers.put(order, new ReservationRows.Header(order, ReservationState.CANCELLED, "f", NOW,
                    NOW.plusSeconds(900), NOW, NOW, null));
            return this;
        }

        /** The line's confirm is applied: its units are sold in the database. */
        Given sold(String order, SkuId sku) {
            return appliedOrderOp(order + "|" + sku.value() + "|CONFIRM");
        }

        Given appliedOrderOp(String op) {
            appliedOrderOps.add(op);
            return this;
        }

        Given stamp(Stamp stamp, String eventId) {
            stampOwners.put(stamp, eventId);
            return this;
        }

        Given known(String eventId) {
            known.add(eventId);
            return this;
        }

        Given refused(String order, EventOutcome.Rejected refusal) {
            refusedOrders.put(OrderId.of(order), refusal);
            return this;
        }

        /** The strict plan (the synchronous journal's) of a batch, fenced as {@link JournalApplier} does. */
        ApplyPlan plan(StockEvent... batch) {
            ApplyPlan plan = new ApplyPlan(true, headers, lines, Map.of(), known, appliedOrderOps, stampOwners, sets,
                    owners, journalBehind, refusedOrders);
            plan.fence(List.of(batch));
            return plan;
        }
    }

    private static StockEvent reserve(String id, SkuId sku, String order, long qty, long epoch, long sequence) {
        return new StockEvent(id, sku, 0, StockOp.RESERVE, OrderId.of(order), null, qty, -qty, qty, 0, null, "test",
                NOW, epoch, sequence, "f", NOW.plusSeconds(900), STOCK - qty, -qty);
    }

    /** A settlement of a 2-unit line of an order that was {@code from} when the hot store settled it. */
    private static StockEvent settle(String id, StockOp op, SkuId sku, String order, ReservationState from, long epoch,
            long sequence) {
        long q = 2;
        long da = op == StockOp.CONFIRM ? 0 : q;
        long dr = from == ReservationState.CONFIRMED ? 0 : -q;
        long ds = op == StockOp.CONFIRM ? q : from == ReservationState.CONFIRMED ? -q : 0;
        return new StockEvent(id, sku, 0, op, OrderId.of(order), null, q, da, dr, ds, null, "test", NOW, epoch,
                sequence, null, null, STOCK + da, da);
    }

    private static StockEvent stock(String id, StockOp op, SkuId sku, long delta, long epoch, long sequence) {
        return new StockEvent(id, sku, 0, op, null, "rq-" + id, Math.abs(delta), delta, 0, 0, null, "test", NOW,
                epoch, sequence, null, null, STOCK + delta, delta);
    }
}
