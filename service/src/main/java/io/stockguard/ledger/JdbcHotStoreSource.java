package io.stockguard.ledger;

import io.stockguard.journal.Journal;
import io.stockguard.platform.Caller;
import io.stockguard.platform.SqlStatements;
import io.stockguard.reservation.HotStoreSource;
import io.stockguard.reservation.ReservationState;
import io.stockguard.reservation.ReservationView;
import io.stockguard.reservation.ReservedLine;
import io.stockguard.stock.CustomerId;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/** The database's side of {@link HotStoreSource}: orders and SKUs as the database holds them. */
final class JdbcHotStoreSource implements HotStoreSource {

    private final JdbcTemplate jdbc;
    private final SqlStatements sql;
    private final SkuRows skus;
    private final ReservationRows reservations;

    private final TransactionTemplate transactions;
    private final Journal journal;

    JdbcHotStoreSource(JdbcTemplate jdbc, SqlStatements sql, SkuRows skus, ReservationRows reservations,
            TransactionTemplate transactions, Journal journal) {
        this.transactions = transactions;
        this.journal = journal;
        this.jdbc = jdbc;
        this.sql = sql;
        this.skus = skus;
        this.reservations = reservations;
    }

    @Override
    public OptionalInt bucketCount(SkuId sku) {
        return skus.bucketCount(sku);
    }

    @Override
    public List<OpenLine> openLines(SkuId sku, int limit) {
        return jdbc.query(sql.get("openLinesOfSku"), (rs, i) -> new OpenLine(OrderId.of(rs.getString("order_id")),
                rs.getString("state"), rs.getInt("qty"), rs.getInt("bucket"),
                CustomerId.ofNullable(rs.getString("customer_id"))), sku.value(), limit);
    }

    @Override
    public Optional<StoredOrder> storedOrder(OrderId order) {
        return reservations.find(order).map(header -> new StoredOrder(header.view(reservations.lines(order)),
                header.fingerprint()));
    }

    @Override
    public void tombstone(OrderId order, String traceId, Instant now) {
        reservations.insertIfAbsent(new ReservationRows.Header(order, ReservationState.CANCELLED,
                ReservationRows.TOMBSTONE, now, null, null, now, traceId));
    }

    /**
     * No ownership check: the hot store that owns the SKUs decided the extension. The row may be
     * in any state by now (the order confirmed or cancelled meanwhile); its end is recorded all the
     * same, and the caller answers with the state it finds.
     */
    @Override
    public Optional<ReservationView> recordExtension(OrderId order, Instant holdEnds, int extensions, Caller caller,
            Instant now) {
        return transactions.execute(status -> reservations.lock(order).map(locked -> {
            List<ReservedLine> lines = reservations.lines(order);
            if (locked.extensions() >= extensions && locked.expiresAt() != null
                    && !locked.expiresAt().isBefore(holdEnds)) {
                return locked.view(lines);
            }
            return HoldRecord.extend(locked, holdEnds, extensions, lines, reservations, journal,
                    JdbcStockLedger.context(caller, now)).view(lines);
        }));
    }

    @Override
    public java.util.Map<Integer, Long> appliedSequences(SkuId sku, long epoch) {
        java.util.Map<Integer, Long> sequences = new java.util.TreeMap<>();
        jdbc.query(sql.get("appliedStamps"), rs -> {
            sequences.put(rs.getInt("bucket"), rs.getLong("applied_epoch") == epoch ? rs.getLong("applied_seq") : 0);
        }, sku.value());
        return sequences;
    }

    @Override
    public Optional<String> stockRequestFingerprint(String requestId) {
        return jdbc.query(sql.get("stockRequest"), (rs, i) -> rs.getString("fingerprint"), requestId).stream()
                .findFirst();
    }

    @Override
    public void setSafetyStock(SkuId sku, long safetyStock, Instant now) {
        skus.setSafetyStock(sku, safetyStock, now);
    }

    @Override
    public void setTerms(SkuId sku, Integer limitPerCustomer, Long lowStockThreshold, Instant now) {
        skus.setTerms(sku, limitPerCustomer, lowStockThreshold, now);
    }

    @Override
    public List<SkuId> page(String after, int limit) {
        return jdbc.query(sql.get("skuPage"), (rs, i) -> SkuId.of(rs.getString(1)), after, limit);
    }
}
