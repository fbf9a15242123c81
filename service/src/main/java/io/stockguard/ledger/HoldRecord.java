package io.stockguard.ledger;

import io.stockguard.journal.Journal;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockEvents;
import io.stockguard.reservation.ReservedLine;
import io.stockguard.stock.SkuId;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * How the database records an extended hold, whoever decided it (the database ledger, or the hot
 * store that owns the order's SKUs): the row's end and count, and one EXTEND per line in the
 * journal. A line whose EXTEND is journaled already keeps it: a retry records nothing twice.
 */
final class HoldRecord {

    private HoldRecord() {
    }

    /** Records the extension on a row the caller holds locked; returns the row as it is now. */
    static ReservationRows.Header extend(ReservationRows.Header locked, Instant holdEnds, int extensions,
            List<ReservedLine> lines, ReservationRows reservations, Journal journal, StockEvents.Context context) {
        Instant ends = locked.expiresAt() != null && locked.expiresAt().isAfter(holdEnds) ? locked.expiresAt()
                : holdEnds;
        int count = Math.max(locked.extensions(), extensions);
        reservations.extendHold(locked.orderId(), ends, count);
        Set<SkuId> journaled = reservations.extendedLines(locked.orderId());
        List<StockEvent> events = lines.stream().filter(line -> !journaled.contains(line.skuId()))
                .map(line -> StockEvents.extend(locked.orderId(), line.skuId(), line.bucket(), line.qty(), ends,
                        context))
                .toList();
        journal.append(events);
        return locked.extended(ends, count);
    }
}
