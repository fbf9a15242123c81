package io.stockguard.reservation.jdbc;

import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import io.stockguard.platform.Timestamps;
import io.stockguard.reservation.ReservationState;
import io.stockguard.reservation.ReservationView;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.SkuMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What the hot store is loaded from: the database's view of a SKU and of orders. Used by the
 * Redis ledger (module-internal: public only so that package can reach it).
 */
public final class HotStoreSource {

    /** One bucket as the database holds it. */
    public record BucketSource(long available, long reserved, long sold, long appliedSum) {
    }

    /**
     * A SKU as the hot store must be loaded with it.
     *
     * @param invalidSince when the database path started serving it (null if it never did since
     *     the last load): orders changed since then must be rewritten in the hot store
     */
    public record SkuSource(SkuId skuId, int bucketCount, SkuMode mode, int throttleRate, long epoch,
            Instant invalidSince, List<BucketSource> buckets) {
    }

    /** An open hold of a SKU: its line must be in the hot store. */
    public record OpenLine(OrderId orderId, int qty, int bucket) {
    }

    private final TransactionTemplate transactions;
    private final JdbcTemplate jdbc;
    private final SqlStatements sql;
    private final SkuRows skus;
    private final ReservationRows reservations;
    private final SqlDialect dialect;

    HotStoreSource(TransactionTemplate transactions, JdbcTemplate jdbc, SqlStatements sql, SkuRows skus,
            ReservationRows reservations, SqlDialect dialect) {
        this.transactions = transactions;
        this.jdbc = jdbc;
        this.sql = sql;
        this.skus = skus;
        this.reservations = reservations;
        this.dialect = dialect;
    }

    /**
     * Reads a SKU for loading. With {@code newEpoch} the SKU's hot epoch is advanced first and the
     * SKU marked valid for the hot store, in the same transaction as the read, under the SKU's lock.
     */
    public Optional<SkuSource> read(SkuId sku, boolean newEpoch) {
        return transactions.execute(status -> {
            if (skus.lock(sku).isEmpty()) {
                return Optional.empty();
            }
            List<BucketSource> buckets = new ArrayList<>();
            int[] count = {0};
            SkuMode[] mode = {SkuMode.NORMAL};
            int[] rate = {0};
            long[] epoch = {0};
            Instant[] invalidSince = {null};
            jdbc.query(sql.get("hotSource"), rs -> {
                count[0] = rs.getInt("bucket_count");
                mode[0] = SkuMode.valueOf(rs.getString("mode"));
                rate[0] = rs.getInt("throttle_rate");
                epoch[0] = rs.getLong("hot_epoch");
                invalidSince[0] = Timestamps.fromDatabase(rs, "hot_invalid_since", dialect);
                buckets.add(new BucketSource(rs.getLong("available"), rs.getLong("reserved"), rs.getLong("sold"),
                        rs.getLong("applied_sum")));
            }, sku.value());
            if (buckets.size() != count[0]) {
                throw new LedgerInvariantViolation("SKU " + sku + " has " + buckets.size() + " of " + count[0]
                        + " buckets");
            }
            if (newEpoch) {
                jdbc.update(sql.get("nextHotEpoch"), sku.value());
                epoch[0]++;
            }
            return Optional.of(new SkuSource(sku, count[0], mode[0], rate[0], epoch[0], invalidSince[0], buckets));
        });
    }

    /** The SKU's bucket count (fixed once the SKU exists), or empty when it does not exist. */
    public OptionalInt bucketCount(SkuId sku) {
        return skus.bucketCount(sku);
    }

    public List<OpenLine> openLines(SkuId sku) {
        return jdbc.query(sql.get("openLinesOfSku"), (rs, i) -> new OpenLine(OrderId.of(rs.getString("order_id")),
                rs.getInt("qty"), rs.getInt("bucket")), sku.value());
    }

    public Optional<ReservationView> order(OrderId order) {
        return reservations.find(order).map(header -> header.view(reservations.lines(order)));
    }

    /** Records an early cancel's tombstone in the database too, so every tier refuses a late reserve. */
    public void tombstone(OrderId order, String traceId, Instant now) {
        reservations.insertIfAbsent(new ReservationRows.Header(order, ReservationState.CANCELLED,
                ReservationRows.TOMBSTONE, now, null, null, now, traceId));
    }

    /**
     * Gives back what {@link #read(SkuId, boolean)} with a new epoch drew, for a load that did not
     * happen: the SKU's epoch becomes {@code hotEpoch} (the one the hot store has) and its validity
     * is as before, so the database accepts the changes of the hot store that is still there (and
     * keeps refusing those of one it had taken over). Unless another read drew an epoch since.
     */
    public void returnEpoch(SkuSource drawn, long hotEpoch) {
        jdbc.update(sql.get("returnHotEpoch"), hotEpoch, drawn.invalidSince() == null,
                Timestamps.parameter(drawn.invalidSince(), dialect), drawn.skuId().value(), drawn.epoch());
    }

    /** Whether the hot store serves a SKU; when it does not, since when the database path has it. */
    public record HotOwnership(boolean valid, Instant invalidSince) {
    }

    /** The SKU's ownership now; empty for a SKU the database does not have. */
    public Optional<HotOwnership> ownership(SkuId sku) {
        return jdbc.query(sql.get("hotOwnership"), (rs, i) -> new HotOwnership(rs.getBoolean("hot_valid"),
                Timestamps.fromDatabase(rs, "hot_invalid_since", dialect)), sku.value()).stream().findFirst();
    }

    /** The hot store must not serve this SKU until it is loaded again (the database path sold it). */
    public void markInvalid(SkuId sku, Instant now) {
        jdbc.update(sql.get("markHotInvalid"), Timestamps.parameter(now, dialect), sku.value());
    }

    /**
     * Orders the database path changed for this SKU since {@code since}, at most {@code limit}.
     * An event's time is its request's start, which may precede the moment the request took the
     * SKU over: the caller leaves a margin.
     */
    public List<OrderId> ordersChangedByDatabase(SkuId sku, Instant since, int limit) {
        return jdbc.query(sql.get("ordersChangedByDatabase"), (rs, i) -> OrderId.of(rs.getString(1)), sku.value(),
                Timestamps.parameter(since, dialect), limit);
    }

    public List<SkuId> invalid(int limit) {
        return jdbc.query(sql.get("hotInvalidSkus"), (rs, i) -> SkuId.of(rs.getString(1)), limit);
    }

    /** SKU ids after {@code after} (exclusive, "" for the first page), in id order. */
    public List<SkuId> page(String after, int limit) {
        return jdbc.query(sql.get("skuPage"), (rs, i) -> SkuId.of(rs.getString(1)), after, limit);
    }
}
