package io.stockguard.journal;

import io.stockguard.platform.QueryPipeline;
import io.stockguard.stock.OrderId;
import java.util.List;
import java.util.Set;

/**
 * What the appended journal checks before it acknowledges a change, in the append's transaction,
 * because the database applies the change only later:
 * <ul>
 * <li>that the change's hot store still owns its SKU (a hand-over that committed before is seen;
 *     one that commits after waits for the append and then for its entry to be applied);</li>
 * <li>whether a reservation is of an order the database already has: the hot store lost that
 *     order's records (a failover's lost writes) or the database made it. Such a change is rare,
 *     and is applied at once, strictly, so that its caller hears what the database has, as the
 *     synchronous journal answered every change.</li>
 * </ul>
 */
public interface AppendFence {

    /**
     * Adds the reads the check needs to {@code reads} (sent with the append's own, in one round
     * trip where the database allows); the check answers once the pipeline has run.
     */
    Check read(QueryPipeline reads, List<StockEvent> events);

    /** The check of one append's events. */
    interface Check {

        /**
         * Per event (same order), why it is refused, or null when it may be appended. An order
         * with a refused change is refused whole, as the applier would, so it can be made again
         * by the SKU's owner.
         */
        List<EventOutcome.Rejected> refusals();

        /** The orders of the events' reservations that the database already has. */
        Set<OrderId> knownOrders();
    }
}
