package io.stockguard.ledger;

import static io.stockguard.ledger.JournalEvents.A;
import static io.stockguard.ledger.JournalEvents.B;
import static io.stockguard.ledger.JournalEvents.NOW;
import static io.stockguard.ledger.JournalEvents.bucket;
import static io.stockguard.ledger.JournalEvents.cancelSold;
import static io.stockguard.ledger.JournalEvents.change;
import static io.stockguard.ledger.JournalEvents.hot;
import static io.stockguard.ledger.JournalEvents.line;
import static io.stockguard.ledger.JournalEvents.on;
import static io.stockguard.ledger.JournalEvents.reserve;
import static io.stockguard.ledger.JournalEvents.settle;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The plan as a whole: the rules in their order, and what an outcome does to reservation rows,
 * waiting events and counters. Each rule's own cases are in its own test; these are the paths
 * between them (waits and their release, retries, the lenient journal).
 */
class ApplyPlanTest {

    @Test
    void aCancelThatOvertookItsReserveWaitsForTheOrderWhichReadsAsCancelledMeanwhile() {
        Given given = new Given().sku(bucket(A, SkuMode.NORMAL, 10, 0, 0, 10));
        StockEvent cancel = hot(settle("e-cancel", StockOp.CANCEL, "o1", 2), 3, 2, 10);

        ApplyPlan plan = given.plan(cancel);

        assertThat(plan.decide(cancel)).isEqualTo(EventOutcome.Settled.DEFERRED);
        assertThat(plan.newWaits()).containsExactly(new Waiting.Wait(cancel, Waiting.ORDER));
        assertThat(plan.newHeaders()).singleElement().satisfies(tombstone -> {
            assertThat(tombstone.state()).isEqualTo(ReservationState.CANCELLED);
            assertThat(tombstone.fingerprint()).isEqualTo(ReservationRows.TOMBSTONE);
            assertThat(tombstone.closedAt()).isEqualTo(NOW);
        });
        assertThat(plan.applied()).isEmpty();
        assertThat(plan.sets().get(A).changes()).isEmpty();
        assertThat(plan.anomalies()).isEmpty();
    }

    @Test
    void aConfirmThatOvertookItsReserveWaitsWithoutATombstone() {
        Given given = new Given().sku(bucket(A, SkuMode.NORMAL, 10, 0, 0, 10));
        StockEvent confirm = hot(settle("e-confirm", StockOp.CONFIRM, "o1", 2), 3, 2, 10);

        ApplyPlan plan = given.plan(confirm);

        assertThat(plan.decide(confirm)).isEqualTo(EventOutcome.Settled.DEFERRED);
        assertThat(plan.newWaits()).containsExactly(new Waiting.Wait(confirm, Waiting.ORDER));
        assertThat(plan.newHeaders()).isEmpty();
    }

    @Test
    void aReserveAppliesTheCancelThatOvertookItInTheSameBatch() {
        Given given = new Given().sku(bucket(A, SkuMode.NORMAL, 10, 0, 0, 10));
        StockEvent cancel = hot(settle("e-cancel", StockOp.CANCEL, "o1", 2), 3, 2, 10);
        StockEvent sale = hot(reserve("e-sale", "o1", 2), 3, 1, 10);

        ApplyPlan plan = given.plan(cancel, sale);

        assertThat(plan.decide(cancel)).isEqualTo(EventOutcome.Settled.DEFERRED);
        assertThat(plan.decide(sale)).isEqualTo(EventOutcome.Settled.APPLIED);
        assertThat(plan.applied()).extracting(StockEvent::eventId).containsExactly("e-sale", "e-cancel");
        assertThat(plan.newWaits()).as("nothing of the batch is left waiting").isEmpty();
        assertThat(plan.released()).as("nothing stored to delete").isEmpty();
        assertThat(plan.newHeaders()).extracting(ReservationRows.Header::state)
                .containsExactly(ReservationState.CANCELLED);
        assertThat(plan.newLines()).containsEntry(OrderId.of("o1"), List.of(line(A, 2)));
        assertThat(plan.sets().get(A).changes()).as("the sale and its cancel net to nothing").isEmpty();
        assertThat(plan.anomalies()).isEmpty();
    }

    @Test
    void aReserveReleasesTheCancelAnEarlierBatchStoredAsWaitingForIt() {
        StockEvent cancel = hot(settle("e-cancel", StockOp.CANCEL, "o1", 2), 3, 2, 10);
        Given given = new Given().sku(bucket(A, SkuMode.NORMAL, 10, 0, 0, 10)).tombstone("o1").waitingForOrder(cancel);
        StockEvent sale = hot(reserve("e-sale", "o1", 2), 3, 1, 10);

        ApplyPlan plan = given.plan(sale);

        assertThat(plan.decide(sale)).as("not a reservation after a cancel: its own cancel overtook it")
                .isEqualTo(EventOutcome.Settled.APPLIED);
        assertThat(plan.applied()).extracting(StockEvent::eventId).containsExactly("e-sale", "e-cancel");
        assertThat(plan.released()).containsExactly("e-cancel");
        assertThat(plan.newHeaders()).isEmpty();
        assertThat(plan.changedHeaders()).as("the tombstone already reads cancelled").isEmpty();
        assertThat(plan.anomalies()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aReserveReleasesTheConfirmAndThenTheCancelOfTheSaleThatBothWaitedForIt(boolean confirmStoredFirst) {
        // Kafka paused after the reserve: the confirm and the cancel of the sale reached the database
        // first, by its own journal, and waited for the order; the reserve then brings all three.
        StockEvent confirm = hot(settle("e-confirm", StockOp.CONFIRM, "o1", 2), 3, 2, 10);
        StockEvent cancel = hot(cancelSold("e-cancel", "o1", 2), 3, 3, 10);
        Given given = new Given().sku(bucket(A, SkuMode.NORMAL, 10, 0, 0, 10)).tombstone("o1");
        given = confirmStoredFirst ? given.waitingForOrder(confirm).waitingForOrder(cancel)
                : given.waitingForOrder(cancel).waitingForOrder(confirm);
        StockEvent sale = hot(reserve("e-sale", "o1", 2), 3, 1, 10);

        ApplyPlan plan = given.plan(sale);

        assertThat(plan.decide(sale)).isEqualTo(EventOutcome.Settled.APPLIED);
        assertThat(plan.applied()).extracting(StockEvent::eventId).containsExactly("e-sale", "e-confirm", "e-cancel");
        assertThat(plan.released()).containsExactlyInAnyOrder("e-confirm", "e-cancel");
        assertThat(plan.sets().get(A).changes()).as("the units return to available: sold, then cancelled")
                .allSatisfy(change -> {
                    assertThat(change.available()).isZero();
                    assertThat(change.reserved()).isZero();
                    assertThat(change.sold()).isZero();
                });
        assertThat(plan.anomalies()).isEmpty();
    }

    @Test
    void aSettlementAlreadyWaitingForItsOrderIsNotTakenTwice() {
        StockEvent cancel = hot(settle("e-cancel", StockOp.CANCEL, "o1", 2), 3, 2, 10);
        Given given = new Given().sku(bucket(A, SkuMode.NORMAL, 10, 0, 0, 10)).tombstone("o1").waitingForOrder(cancel);
        StockEvent again = hot(settle("e-cancel-2", StockOp.CANCEL, "o1", 2), 3, 3, 10);

        ApplyPlan plan = given.plan(again);

        assertRejected(plan.decide(again), EventOutcome.Reason.INVALID_TRANSITION);
        assertThat(plan.newWaits()).isEmpty();
    }

    @Test
    void aReserveOfAnOrderCancelledBeforeItArrivedIsRefusedToItsCallerOrAppliedAndRecorded() {
        StockEvent sale = hot(reserve("e-sale", "o1", 2), 3, 1, 10);

        ApplyPlan strict = new Given().sku(bucket(A, SkuMode.NORMAL, 10, 0, 0, 10)).tombstone("o1").plan(sale);
        assertRejected(strict.decide(sale), EventOutcome.Reason.ORDER_CANCELLED);
        assertThat(strict.applied()).isEmpty();
        assertThat(strict.anomalies()).as("its caller hears it").isEmpty();

        ApplyPlan lenient = new Given().lenient().sku(bucket(A, SkuMode.NORMAL, 10, 0, 0, 10)).tombstone("o1")
                .plan(sale);
        assertThat(lenient.decide(sale)).as("acknowledged already").isEqualTo(EventOutcome.Settled.APPLIED);
        assertThat(lenient.anomalies()).extracting(Anomaly::kind).containsExactly("ORDER_CANCELLED");
    }

    @Test
    void anAcknowledgedSaleOverATombstoneMakesTheOrderReservedSoItsSettlementsApply() {
        // Chaos, full tier, seed 81: the hot store sold an order whose tombstone only the database had.
        StockEvent sale = hot(reserve("e-sale", "o1", 2), 3, 1, 10);
        StockEvent confirm = hot(settle("e-confirm", StockOp.CONFIRM, "o1", 2), 3, 2, 10);
        StockEvent cancel = hot(cancelSold("e-cancel", "o1", 2), 3, 3, 10);

        ApplyPlan plan = new Given().lenient().sku(bucket(A, SkuMode.NORMAL, 10, 0, 0, 10)).tombstone("o1")
                .plan(sale, confirm, cancel);

        assertThat(plan.decide(sale)).isEqualTo(EventOutcome.Settled.APPLIED);
        assertThat(plan.decide(confirm)).as("not refused as a confirm of a cancelled order")
                .isEqualTo(EventOutcome.Settled.APPLIED);
        assertThat(plan.decide(cancel)).isEqualTo(EventOutcome.Settled.APPLIED);
        assertThat(plan.changedHeaders()).singleElement().satisfies(order -> {
            assertThat(order.state()).isEqualTo(ReservationState.CANCELLED);
            assertThat(order.fingerprint()).isNotEqualTo(ReservationRows.TOMBSTONE);
        });
        assertThat(plan.anomalies()).extracting(Anomaly::kind).containsExactly("ORDER_CANCELLED");
        assertThat(plan.newWaits()).as("nothing left waiting for the order").isEmpty();
    }

    @Test
    void aReserveWhoseOwnCancelIsWaitingOnAnotherSkuIsNoAnomalyOfTheLenientJournal() {
        StockEvent cancelOfB = on(hot(settle("e-cancel", StockOp.CANCEL, "o1", 2), 3, 2, 10), B, 0);
        StockEvent sale = hot(reserve("e-sale", "o1", 2), 3, 1, 10);

        ApplyPlan lenient = new Given().lenient().sku(bucket(A, SkuMode.NORMAL, 10, 0, 0, 10)).tombstone("o1")
                .waitingForOrder(cancelOfB).plan(sale);
        assertThat(lenient.decide(sale)).isEqualTo(EventOutcome.Settled.APPLIED);
        assertThat(lenient.anomalies()).isEmpty();

        ApplyPlan strict = new Given().sku(bucket(A, SkuMode.NORMAL, 10, 0, 0, 10)).tombstone("o1")
                .waitingForOrder(cancelOfB).plan(sale);
        assertRejected(strict.decide(sale), EventOutcome.Reason.ORDER_CANCELLED);
    }

    @Test
    void aReserveOfAFrozenSkuIsRefusedToItsCallerButAppliedOnceAcknowledged() {
        StockEvent sale = hot(reserve("e-sale", "o1", 2), 3, 1, 10);

        ApplyPlan strict = new Given().sku(bucket(A, SkuMode.FROZEN, 10, 0, 0, 10)).plan(sale);
        assertRejected(strict.decide(sale), EventOutcome.Reason.SKU_FROZEN);
        assertThat(strict.anomalies()).isEmpty();

        ApplyPlan lenient = new Given().lenient().sku(bucket(A, SkuMode.FROZEN, 10, 0, 0, 10)).plan(sale);
        assertThat(lenient.decide(sale)).isEqualTo(EventOutcome.Settled.APPLIED);
    }

    @Test
    void aChangeThatDoesNotFitYetWaitsForItsBucketAndAppliesAfterItsPredecessor() {
        Given given = new Given().sku(bucket(A, SkuMode.NORMAL, 0, 0, 0, 0));
        StockEvent sale = hot(reserve("e-sale", "o1", 2), 3, 2, 0);
        StockEvent restock = hot(change("e-restock", StockOp.RESTOCK, "rq-1", 5), 3, 1, 0);

        ApplyPlan plan = given.plan(sale, restock);

        assertThat(plan.decide(sale)).isEqualTo(EventOutcome.Settled.DEFERRED);
        assertThat(plan.newWaits()).containsExactly(new Waiting.Wait(sale, Waiting.BUCKET));
        assertThat(plan.decide(restock)).isEqualTo(EventOutcome.Settled.APPLIED);
        assertThat(plan.retryWaiting(List.of(sale))).containsExactly("e-sale");
        assertThat(plan.newWaits()).isEmpty();
        assertThat(plan.released()).isEmpty();
        assertThat(plan.applied()).extracting(StockEvent::eventId).containsExactly("e-restock", "e-sale");
        assertThat(plan.newLines()).containsKey(OrderId.of("o1"));
        assertThat(plan.sets().get(A).changes()).singleElement().satisfies(c -> {
            assertThat(c.available()).isEqualTo(3);
            assertThat(c.reserved()).isEqualTo(2);
        });
        assertThat(plan.anomalies()).isEmpty();
    }

    @Test
    void aChangeAnEarlierBatchStoredAsWaitingIsReleasedWhenItApplies() {
        Given given = new Given().sku(bucket(A, SkuMode.NORMAL, 0, 0, 0, 0));
        StockEvent stored = hot(reserve("e-sale", "o1", 2), 3, 2, 0);
        StockEvent restock = hot(change("e-restock", StockOp.RESTOCK, "rq-1", 5), 3, 1, 0);

        ApplyPlan plan = given.plan(restock);

        assertThat(plan.decide(restock)).isEqualTo(EventOutcome.Settled.APPLIED);
        assertThat(plan.retryWaiting(List.of(stored))).containsExactly("e-sale");
        assertThat(plan.released()).containsExactly("e-sale");
    }

    @Test
    void aRetryThatStillDoesNotFitStaysWaitingWithoutAnAnomaly() {
        Given given = new Given().sku(bucket(A, SkuMode.NORMAL, 0, 0, 0, 0));
        StockEvent waiting = hot(reserve("e-sale", "o1", 2), 3, 2, 0);
        StockEvent drifted = hot(reserve("e-drift", "o2", 2), 3, 3, 7);
        StockEvent settlement = hot(settle("e-confirm", StockOp.CONFIRM, "o3", 2), 3, 4, 0);

        ApplyPlan plan = given.plan();

        assertThat(plan.retryWaiting(List.of(waiting, drifted, settlement))).isEmpty();
        assertThat(plan.newWaits()).isEmpty();
        assertThat(plan.released()).isEmpty();
        assertThat(plan.applied()).isEmpty();
        assertThat(plan.anomalies()).isEmpty();
    }

    @Test
    void aChangeThatDoesNotFitWhileTheStoresDisagreeIsRefusedAsDrift() {
        Given given = new Given().sku(bucket(A, SkuMode.NORMAL, 1, 0, 0, 0));
        StockEvent sale = hot(reserve("e-sale", "o1", 2), 3, 1, 7);
        StockEvent removal = change("e-removal", StockOp.ADJUST, "rq-1", -5);

        ApplyPlan plan = given.plan(sale, removal);

        assertThat(plan.decide(sale)).isEqualTo(new EventOutcome.Rejected(EventOutcome.Reason.WOULD_GO_NEGATIVE,
                "bucket 0 cannot take RESERVE of 2: the hot store's R - J is 7, the database's D - A is 0"));
        assertThat(plan.decide(removal)).isEqualTo(new EventOutcome.Rejected(EventOutcome.Reason.WOULD_GO_NEGATIVE,
                "bucket 0 cannot take ADJUST of 5"));
        assertThat(plan.anomalies()).extracting(Anomaly::kind)
                .containsExactly("WOULD_GO_NEGATIVE", "WOULD_GO_NEGATIVE");
        assertThat(plan.newWaits()).isEmpty();
        assertThat(plan.applied()).isEmpty();
    }

    @Test
    void aTransferWhoseOtherHalfWasRefusedIsRefusedToo() {
        Given given = new Given().sku(bucket(A, SkuMode.NORMAL, 1, 0, 0, 1));
        StockEvent out = hot(change("e-out", StockOp.TRANSFER_OUT, "t1", -3), 3, 1, 9);
        StockEvent in = hot(change("e-in", StockOp.TRANSFER_IN, "t1", 3), 3, 2, 9);
        StockEvent otherIn = hot(change("e-other", StockOp.TRANSFER_IN, "t2", 3), 3, 3, 1);

        ApplyPlan plan = given.plan(out, in, otherIn);

        assertRejected(plan.decide(out), EventOutcome.Reason.WOULD_GO_NEGATIVE);
        assertThat(plan.decide(in)).isEqualTo(new EventOutcome.Rejected(EventOutcome.Reason.WOULD_GO_NEGATIVE,
                "its other half was refused"));
        assertThat(plan.decide(otherIn)).isEqualTo(EventOutcome.Settled.APPLIED);
        assertThat(plan.anomalies()).extracting(Anomaly::eventId).containsExactly("e-out", "e-in");
    }

    @Test
    void anEventOfASkuTheDatabaseDoesNotHaveIsRefused() {
        StockEvent sale = on(reserve("e-sale", "o1", 2), B, 0);

        ApplyPlan plan = new Given().sku(bucket(A, SkuMode.NORMAL, 10, 0, 0, 10)).plan(sale);

        assertRejected(plan.decide(sale), EventOutcome.Reason.UNKNOWN_SKU);
        assertThat(plan.anomalies()).extracting(Anomaly::kind).containsExactly("UNKNOWN_SKU");
    }

    @Test
    void aSecondReservationOfALineIsRefusedEvenWhenTheJournalLacksTheFirst() {
        Given given = new Given().sku(bucket(A, SkuMode.NORMAL, 10, 2, 0, 10))
                .order("o1", ReservationState.RESERVED, line(A, 2)).unjournaled("o1", A);
        StockEvent sale = reserve("e-sale", "o1", 2);

        ApplyPlan plan = given.plan(sale);

        assertThat(plan.decide(sale)).isEqualTo(new EventOutcome.Rejected(EventOutcome.Reason.INVALID_TRANSITION,
                "a second reservation of the same line"));
        assertThat(plan.anomalies()).extracting(Anomaly::detail)
                .containsExactly("RESERVE a second reservation of the same line");
    }

    @Test
    void theHighestStampAppliedToEachBucketIsKept() {
        Given given = new Given().sku(bucket(A, SkuMode.NORMAL, 10, 0, 0, 10));
        StockEvent later = hot(change("e2", StockOp.RESTOCK, "rq-2", 1), 3, 2, 10);
        StockEvent earlier = hot(change("e1", StockOp.RESTOCK, "rq-1", 1), 3, 1, 10);
        StockEvent unstamped = change("e3", StockOp.RESTOCK, "rq-3", 1);

        ApplyPlan plan = given.plan(later, earlier, unstamped);
        List.of(later, earlier, unstamped).forEach(plan::decide);

        assertThat(plan.highestStamps()).containsExactly(new Stamp(A, 0, 3, 2));
    }

    @Test
    void aSettlementMovesTheOrderAndStampsWhenItClosed() {
        Given given = new Given().sku(bucket(A, SkuMode.NORMAL, 10, 4, 0, 10))
                .order("o1", ReservationState.RESERVED, line(A, 2)).order("o2", ReservationState.RESERVED, line(A, 2));
        StockEvent confirm = settle("e1", StockOp.CONFIRM, "o1", 2);
        StockEvent cancel = settle("e2", StockOp.CANCEL, "o2", 2);

        ApplyPlan plan = given.plan(confirm, cancel);

        assertThat(plan.decide(confirm)).isEqualTo(EventOutcome.Settled.APPLIED);
        assertThat(plan.decide(cancel)).isEqualTo(EventOutcome.Settled.APPLIED);
        assertThat(plan.changedHeaders()).satisfiesExactly(confirmed -> {
            assertThat(confirmed.state()).isEqualTo(ReservationState.CONFIRMED);
            assertThat(confirmed.confirmedAt()).isEqualTo(NOW);
            assertThat(confirmed.closedAt()).isNull();
        }, cancelled -> {
            assertThat(cancelled.state()).isEqualTo(ReservationState.CANCELLED);
            assertThat(cancelled.closedAt()).isEqualTo(NOW);
        });
    }

    @Test
    void anOrderReservedAndConfirmedInOneBatchIsWrittenOnceConfirmed() {
        Given given = new Given().sku(bucket(A, SkuMode.NORMAL, 10, 0, 0, 10));
        StockEvent sale = reserve("e1", "o1", 2);
        StockEvent confirm = settle("e2", StockOp.CONFIRM, "o1", 2);

        ApplyPlan plan = given.plan(sale, confirm);

        assertThat(plan.decide(sale)).isEqualTo(EventOutcome.Settled.APPLIED);
        assertThat(plan.decide(confirm)).isEqualTo(EventOutcome.Settled.APPLIED);
        assertThat(plan.newHeaders()).extracting(ReservationRows.Header::state)
                .containsExactly(ReservationState.CONFIRMED);
        assertThat(plan.changedHeaders()).isEmpty();
    }

    // ----------------------------------------------------------------------------------------

    private static void assertRejected(EventOutcome outcome, EventOutcome.Reason reason) {
        assertThat(outcome).isInstanceOfSatisfying(EventOutcome.Rejected.class,
                r -> assertThat(r.reason()).isEqualTo(reason));
    }

    /** What the database holds when a batch arrives, and the plan built on it; every SKU is hot at epoch 3. */
    private static final class Given {
        private boolean strict = true;
        private final Map<OrderId, ReservationRows.Header> headers = new HashMap<>();
        private final Map<OrderId, Map<SkuId, ReservedLine>> lines = new HashMap<>();
        private final Map<OrderId, Map<SkuId, List<StockEvent>>> waitingForOrder = new HashMap<>();
        private final Map<SkuId, BucketSet> sets = new HashMap<>();
        private final Map<SkuId, Ownership> owners = new HashMap<>();
        private final Set<String> appliedOrderOps = new HashSet<>();

        /** The journal applied after it is acknowledged: its changes are applied wherever they can be. */
        Given lenient() {
            strict = false;
            return this;
        }

        Given sku(BucketSet set) {
            sets.put(set.skuId(), set);
            owners.put(set.skuId(), new Ownership.Hot(3));
            return this;
        }

        /** An order in {@code state} with these lines, their reserves in the journal. */
        Given order(String id, ReservationState state, ReservedLine... orderLines) {
            headers.put(OrderId.of(id), JournalEvents.header(id, state));
            for (ReservedLine line : orderLines) {
                lines.computeIfAbsent(OrderId.of(id), k -> new HashMap<>()).put(line.skuId(), line);
                appliedOrderOps.add(id + "|" + line.skuId().value() + "|RESERVE");
            }
            return this;
        }

        /** The journal lacks the reserve of this line (a row written by another path, say). */
        Given unjournaled(String order, SkuId sku) {
            appliedOrderOps.remove(order + "|" + sku.value() + "|RESERVE");
            return this;
        }

        /** The row an early cancel left: the order reads as cancelled. */
        Given tombstone(String id) {
            headers.put(OrderId.of(id), new ReservationRows.Header(OrderId.of(id), ReservationState.CANCELLED,
                    ReservationRows.TOMBSTONE, NOW, null, null, NOW, null));
            return this;
        }

        Given waitingForOrder(StockEvent settlement) {
            waitingForOrder.computeIfAbsent(settlement.orderId(), k -> new HashMap<>())
                    .computeIfAbsent(settlement.skuId(), k -> new ArrayList<>()).add(settlement);
            return this;
        }

        ApplyPlan plan(StockEvent... batch) {
            ApplyPlan plan = new ApplyPlan(strict, headers, lines, waitingForOrder, Set.of(), appliedOrderOps,
                    Map.of(), sets, owners, false, Map.of());
            plan.fence(List.of(batch));
            return plan;
        }
    }
}
