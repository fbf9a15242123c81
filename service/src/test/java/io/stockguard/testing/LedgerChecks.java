package io.stockguard.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Checks of the ledger's invariants made directly on the database, behind the service's back:
 * what the service says is only trusted when the stored rows agree.
 */
public final class LedgerChecks {

    private LedgerChecks() {
    }

    public record Counters(long available, long reserved, long sold) {
        public long total() {
            return available + reserved + sold;
        }
    }

    /** Per bucket counters as stored. */
    public static Map<Integer, Counters> buckets(JdbcTemplate jdbc, String skuId) {
        Map<Integer, Counters> buckets = new HashMap<>();
        jdbc.query("SELECT bucket, available, reserved, sold FROM stock_bucket WHERE sku_id = ?", rs -> {
            buckets.put(rs.getInt(1), new Counters(rs.getLong(2), rs.getLong(3), rs.getLong(4)));
        }, skuId);
        return buckets;
    }

    public static Counters totals(JdbcTemplate jdbc, String skuId) {
        long available = 0;
        long reserved = 0;
        long sold = 0;
        for (Counters counters : buckets(jdbc, skuId).values()) {
            available += counters.available();
            reserved += counters.reserved();
            sold += counters.sold();
        }
        return new Counters(available, reserved, sold);
    }

    /** I1: no bucket below zero and reserved + sold within the total. */
    public static void assertNoOversell(JdbcTemplate jdbc, String skuId, long total) {
        Map<Integer, Counters> buckets = buckets(jdbc, skuId);
        assertThat(buckets).as("buckets of %s", skuId).isNotEmpty();
        buckets.forEach((bucket, counters) -> {
            assertThat(counters.available()).as("available of bucket %d", bucket).isGreaterThanOrEqualTo(0);
            assertThat(counters.reserved()).as("reserved of bucket %d", bucket).isGreaterThanOrEqualTo(0);
            assertThat(counters.sold()).as("sold of bucket %d", bucket).isGreaterThanOrEqualTo(0);
        });
        Counters totals = totals(jdbc, skuId);
        assertThat(totals.reserved() + totals.sold()).as("reserved + sold of %s", skuId).isLessThanOrEqualTo(total);
        assertThat(totals.total()).as("total of %s", skuId).isEqualTo(total);
    }

    /** The ledger's own invariant: every bucket's counters are the sums of its journal's deltas. */
    public static void assertCountersMatchJournal(JdbcTemplate jdbc, String skuId) {
        Map<Integer, Counters> journal = new HashMap<>();
        jdbc.query("SELECT bucket, SUM(delta_available), SUM(delta_reserved), SUM(delta_sold) FROM stock_event "
                + "WHERE sku_id = ? GROUP BY bucket", rs -> {
                    journal.put(rs.getInt(1), new Counters(rs.getLong(2), rs.getLong(3), rs.getLong(4)));
                }, skuId);
        Map<Integer, Counters> buckets = buckets(jdbc, skuId);
        buckets.forEach((bucket, counters) -> assertThat(journal.getOrDefault(bucket, new Counters(0, 0, 0)))
                .as("journal sums of %s bucket %d", skuId, bucket).isEqualTo(counters));
        List<Long> appliedSums = jdbc.queryForList(
                "SELECT b.applied_sum - COALESCE((SELECT SUM(e.delta_available) FROM stock_event e "
                        + "WHERE e.sku_id = b.sku_id AND e.bucket = b.bucket), 0) FROM stock_bucket b WHERE b.sku_id = ?",
                Long.class, skuId);
        assertThat(appliedSums).as("applied_sum minus journaled available deltas, per bucket").containsOnly(0L);
    }
}
