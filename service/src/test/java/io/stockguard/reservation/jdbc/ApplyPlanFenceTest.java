package io.stockguard.reservation.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockOp;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.SkuMode;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The database's fence (I1 across a takeover): a sale is accepted only from the hot store that
 * owns the SKU, the one loaded under the database's epoch while the database path has not taken
 * the SKU over. Settlements pass: they move stock the database holds for the order.
 */
class ApplyPlanFenceTest {

    private static final Instant NOW = Instant.parse("2026-11-11T00:00:00Z");
    private static final SkuId A = SkuId.of("fence-a");
    private static final SkuId B = SkuId.of("fence-b");

    @Test
    void aSaleOfTheOwningHotStoreApplies() {
        ApplyPlan plan = plan(Map.of(A, new ApplyPlan.HotOwner(3, true)));
        StockEvent sale = reserve("e1", A, "o1", 3, 1);
        plan.fence(List.of(sale));

        assertThat(plan.decide(sale)).isEqualTo(EventOutcome.Settled.APPLIED);
        assertThat(plan.anomalies()).isEmpty();
    }

    @Test
    void aSaleUnderAnOlderEpochIsFencedAndRecorded() {
        ApplyPlan plan = plan(Map.of(A, new ApplyPlan.HotOwner(4, true)));
        StockEvent sale = reserve("e1", A, "o1", 3, 1);
        plan.fence(List.of(sale));

        assertThat(plan.decide(sale)).isInstanceOfSatisfying(EventOutcome.Rejected.class,
                r -> assertThat(r.reason()).isEqualTo(EventOutcome.Reason.FENCED));
        assertThat(plan.applied()).isEmpty();
        assertThat(plan.anomalies()).extracting(ApplyPlan.Anomaly::kind).containsExactly("FENCED");
    }

    @Test
    void aSaleAfterTheDatabasePathTookTheSkuOverIsFenced() {
        ApplyPlan plan = plan(Map.of(A, new ApplyPlan.HotOwner(3, false)));
        StockEvent sale = reserve("e1", A, "o1", 3, 1);
        plan.fence(List.of(sale));

        assertThat(plan.decide(sale)).isInstanceOfSatisfying(EventOutcome.Rejected.class,
                r -> assertThat(r.reason()).isEqualTo(EventOutcome.Reason.FENCED));
        assertThat(plan.sets().get(A).changes()).allSatisfy(change -> assertThat(change.available()).isZero());
    }

    @Test
    void oneFencedLineFencesTheWholeOrderSoItCanBeMadeAgainWhole() {
        ApplyPlan plan = plan(Map.of(A, new ApplyPlan.HotOwner(3, true), B, new ApplyPlan.HotOwner(7, false)));
        StockEvent lineA = reserve("e1", A, "o1", 3, 1);
        StockEvent lineB = reserve("e2", B, "o1", 7, 1);
        StockEvent otherOrder = reserve("e3", A, "o2", 3, 2);
        plan.fence(List.of(lineA, lineB, otherOrder));

        assertThat(plan.decide(lineA)).isInstanceOfSatisfying(EventOutcome.Rejected.class,
                r -> assertThat(r.reason()).isEqualTo(EventOutcome.Reason.FENCED));
        assertThat(plan.decide(lineB)).isInstanceOfSatisfying(EventOutcome.Rejected.class,
                r -> assertThat(r.reason()).isEqualTo(EventOutcome.Reason.FENCED));
        assertThat(plan.decide(otherOrder)).isEqualTo(EventOutcome.Settled.APPLIED);
        assertThat(plan.applied()).extracting(StockEvent::eventId).containsExactly("e3");
    }

    @Test
    void aSettlementIsNeverFenced() {
        OrderId order = OrderId.of("o9");
        ApplyPlan plan = new ApplyPlan(true, Map.of(order, new ReservationRows.Header(order,
                io.stockguard.reservation.ReservationState.RESERVED, "f", NOW, NOW.plusSeconds(900), null, null, null)),
                Map.of(order, Map.of(A, new io.stockguard.reservation.ReservedLine(A, 2, 0))), Map.of(), Set.of(),
                Set.of("o9|fence-a|RESERVE"), Map.of(), Map.of(A, set(A, 10, 2)),
                Map.of(A, new ApplyPlan.HotOwner(5, false)));
        StockEvent cancel = new StockEvent("e9", A, 0, StockOp.CANCEL, order, null, 2, 2, -2, 0, null, "test", NOW,
                4L, 2L, null, null, 10L, 0L);
        plan.fence(List.of(cancel));

        assertThat(plan.decide(cancel)).isEqualTo(EventOutcome.Settled.APPLIED);
    }

    private static ApplyPlan plan(Map<SkuId, ApplyPlan.HotOwner> owners) {
        Map<SkuId, BucketSet> sets = new java.util.HashMap<>();
        owners.keySet().forEach(sku -> sets.put(sku, set(sku, 10, 0)));
        return new ApplyPlan(true, Map.of(), Map.of(), Map.of(), Set.of(), Set.of(), Map.of(), sets, owners);
    }

    private static BucketSet set(SkuId sku, long available, long reserved) {
        return BucketSet.of(sku, List.of(new BucketRows.Row(0, available, reserved, 0, SkuMode.NORMAL, 0)));
    }

    private static StockEvent reserve(String id, SkuId sku, String order, long epoch, long sequence) {
        return new StockEvent(id, sku, 0, StockOp.RESERVE, OrderId.of(order), null, 1, -1, 1, 0, null, "test", NOW,
                epoch, sequence, "f", NOW.plusSeconds(900), 9L, -1L);
    }
}
