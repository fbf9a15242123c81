package io.stockguard.ledger;

import io.stockguard.journal.EventApplier;
import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import io.stockguard.platform.Timestamps;
import io.stockguard.reservation.Ownership;
import io.stockguard.reservation.OwnershipStore;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.SkuMode;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Ownership kept in the {@code sku} row ({@code owner}, {@code hot_epoch}, {@code owner_since},
 * {@code owner_seq}). Each transition locks the row, lets {@link Ownership} decide, and writes
 * the new state with the next change number, all in one transaction.
 */
final class JdbcOwnership implements OwnershipStore {

    /**
     * Customers a SKU may have holding units when the hot store loads it: each is one field of a
     * Redis hash and one pair of the load script's arguments. A million is far above a flash sale's
     * buyers of one SKU on one night.
     */
    static final int CUSTOMER_HOLDS_MAX = 1_000_000;

    private final TransactionTemplate transactions;
    private final JdbcTemplate jdbc;
    private final SqlStatements sql;
    private final SqlDialect dialect;
    private final UnsettledLines unsettled;
    private final EventApplier applier;

    JdbcOwnership(TransactionTemplate transactions, JdbcTemplate jdbc, SqlStatements sql, SqlDialect dialect,
            UnsettledLines unsettled, EventApplier applier) {
        this.transactions = transactions;
        this.jdbc = jdbc;
        this.sql = sql;
        this.dialect = dialect;
        this.unsettled = unsettled;
        this.applier = applier;
    }

    @Override
    public Optional<Change> current(SkuId sku) {
        return jdbc.query(sql.get("ownership"), (rs, i) -> new Change(sku, ownership(rs),
                new Position(rs.getLong("owner_seq"), sku.value())), sku.value()).stream().findFirst();
    }

    @Override
    public List<Loaded> load(Collection<SkuId> skus, Instant now, Duration reloadAfter,
            Function<List<HotSource>, Set<SkuId>> intoHotStore) {
        return transactions.execute(status -> {
            List<Loaded> outcomes = new ArrayList<>();
            List<HotSource> sources = new ArrayList<>();
            Map<SkuId, Ownership> found = new LinkedHashMap<>();
            // In SKU order, as every transaction that locks several SKU rows takes them.
            for (SkuId sku : new TreeSet<>(skus)) {
                Optional<Ownership> state = read("lockOwnership", sku);
                if (state.isEmpty()) {
                    continue;
                }
                found.put(sku, state.get());
                if (state.get().load(now, reloadAfter) instanceof Ownership.Moved moved) {
                    // What settled orders still owe on it is settled first: the hot store starts
                    // from counters that owe nobody anything.
                    unsettled.settle(sku, now, events -> applier.apply(events, false));
                    sources.add(source(sku, moved.to().epoch()));
                }
            }
            Set<SkuId> loaded = sources.isEmpty() ? Set.of() : intoHotStore.apply(sources);
            long seq = loaded.isEmpty() ? 0 : nextSeq();
            for (HotSource source : sources) {
                if (loaded.contains(source.skuId())) {
                    write(source.skuId(), new Ownership.Hot(source.epoch()), seq);
                }
            }
            found.forEach((sku, state) -> outcomes.add(new Loaded(sku, state, loaded.contains(sku))));
            return outcomes;
        });
    }

    @Override
    public Ownership.Step takeOver(SkuId sku, long epoch, Instant now) {
        return transactions.execute(status -> {
            // The appended journal's fence: an append under way commits first, and every append
            // after this commit reads the SKU as taken over and refuses the hot store's change.
            // Taken before the SKU's row, in the order an append takes them (it may apply a
            // reservation at once, locking the SKU's row while it holds this lock).
            jdbc.queryForObject(sql.get("lockJournalAppends"), Long.class);
            Ownership found = read("lockOwnership", sku).orElseThrow(() -> unknown(sku));
            if (found instanceof Ownership.Hot hot && hot.epoch() != epoch) {
                return new Ownership.Unchanged(found);
            }
            Ownership.Step step = found.takeOver(now);
            if (step instanceof Ownership.Moved moved) {
                write(sku, moved.to(), nextSeq());
            }
            return step;
        });
    }

    /**
     * Decided twice: first without a lock, to ask the journal only when the delay has passed (and
     * never while holding the row), then under the lock, for the state it was asked about.
     */
    @Override
    public Ownership.Step finishDrain(SkuId sku, Instant now, Duration handOverDelay, BooleanSupplier journalApplied) {
        Ownership seen = read("ownership", sku).orElseThrow(() -> unknown(sku));
        Ownership.Step first = seen.finishDrain(now, handOverDelay, true);
        if (!(first instanceof Ownership.Moved)) {
            return first;
        }
        if (!journalApplied.getAsBoolean()) {
            return seen.finishDrain(now, handOverDelay, false);
        }
        return transactions.execute(status -> {
            Ownership found = read("lockOwnership", sku).orElseThrow(() -> unknown(sku));
            if (!found.equals(seen)) {
                return new Ownership.Refused(found, "changed while the journal was asked: now " + found);
            }
            Ownership.Step step = found.finishDrain(now, handOverDelay, true);
            if (step instanceof Ownership.Moved moved) {
                write(sku, moved.to(), nextSeq());
                // No change of the drained epoch can arrive any more: what its orders' lines
                // still owe is known for good.
                unsettled.settle(sku, now, events -> applier.apply(events, false));
            }
            return step;
        });
    }

    @Override
    public List<Change> changesSince(Position after, int limit) {
        return jdbc.query(sql.get("ownershipChanges"), (rs, i) -> {
            SkuId sku = SkuId.of(rs.getString("sku_id"));
            return new Change(sku, ownership(rs), new Position(rs.getLong("owner_seq"), sku.value()));
        }, after.seq(), after.seq(), after.skuId(), limit);
    }

    @Override
    public Position position() {
        // "~" sorts after every character an id may hold: the position is after every SKU of that change.
        return new Position(jdbc.queryForObject(sql.get("ownershipClock"), Long.class), "~");
    }

    @Override
    public void requireDatabaseOwner(Collection<SkuId> skus, RowHold hold) {
        String statement = hold == RowHold.FOR_UPDATE ? "lockOwnership" : "shareOwnership";
        for (SkuId sku : new TreeSet<>(skus)) {
            Optional<Ownership> found = read(statement, sku);
            if (found.isPresent() && found.get().seller() != Ownership.Seller.DATABASE) {
                throw new NotTheOwner(sku, found.get());
            }
        }
    }

    private HotSource source(SkuId sku, long epoch) {
        List<HotBucketSource> buckets = new ArrayList<>();
        int[] count = {0};
        SkuMode[] mode = {SkuMode.NORMAL};
        int[] rate = {0};
        int[] limit = {0};
        jdbc.query(sql.get("hotSource"), rs -> {
            count[0] = rs.getInt("bucket_count");
            limit[0] = rs.getInt("limit_per_customer");
            mode[0] = SkuMode.valueOf(rs.getString("mode"));
            rate[0] = rs.getInt("throttle_rate");
            buckets.add(new HotBucketSource(rs.getLong("available"), rs.getLong("reserved"), rs.getLong("sold"),
                    rs.getLong("applied_sum")));
        }, sku.value());
        if (buckets.size() != count[0]) {
            throw new LedgerInvariantViolation("SKU " + sku + " has " + buckets.size() + " of " + count[0] + " buckets");
        }
        Map<String, Long> holds = new LinkedHashMap<>();
        jdbc.query(sql.get("customerHoldsOfSku"), rs -> {
            holds.put(rs.getString("customer_id"), rs.getLong("units"));
        }, sku.value(), CUSTOMER_HOLDS_MAX + 1);
        if (holds.size() > CUSTOMER_HOLDS_MAX) {
            // The hot store could not start from the right counts: the database keeps selling it.
            throw new LedgerInvariantViolation("SKU " + sku + " has more than " + CUSTOMER_HOLDS_MAX
                    + " customers holding units; it stays on the database path");
        }
        return new HotSource(sku, count[0], mode[0], rate[0], epoch, List.copyOf(buckets), limit[0], holds);
    }

    private Optional<Ownership> read(String statement, SkuId sku) {
        return jdbc.query(sql.get(statement), (rs, i) -> ownership(rs), sku.value()).stream().findFirst();
    }

    private Ownership ownership(ResultSet rs) throws SQLException {
        return Ownership.of(rs.getString("owner"), rs.getLong("hot_epoch"),
                Timestamps.fromDatabase(rs, "owner_since", dialect));
    }

    private long nextSeq() {
        jdbc.update(sql.get("bumpOwnershipClock"));
        return jdbc.queryForObject(sql.get("ownershipClock"), Long.class);
    }

    private void write(SkuId sku, Ownership state, long seq) {
        Instant since = state.since();
        jdbc.update(sql.get("setOwnership"), state.state(), state.epoch(), Timestamps.parameter(since, dialect), seq,
                sku.value());
    }

    private static IllegalArgumentException unknown(SkuId sku) {
        return new IllegalArgumentException("no SKU " + sku);
    }
}
