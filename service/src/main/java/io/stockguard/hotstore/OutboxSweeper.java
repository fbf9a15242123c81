package io.stockguard.hotstore;

import io.lettuce.core.ScanCursor;
import io.lettuce.core.StreamMessage;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockOp;
import io.stockguard.platform.PeriodicWork;
import io.stockguard.reservation.HotStoreSource;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.TaskScheduler;

/**
 * Settles what requests left behind in the SKUs' outboxes: changes made in the hot store whose
 * request died (or lost Redis) before it removed them. Entries younger than the minimum age still
 * belong to a running request and are left alone. Forwarding is idempotent by event id, so
 * several instances may sweep at once; an order left half-way is settled by one of them at a time
 * (it takes the order's record over first).
 *
 * <p>A line's confirm, cancel or expiry is never journaled on its own while its order's settlement
 * is half-way: the first such change the database applies moves the whole order, and a line that
 * did not move by then (its SKU changed hands in between, or the caller died first) would go on
 * holding its units in both stores, with nobody left to ask for them. The sweeper finishes the
 * settlement instead, as a retry of it would, and that journals every line together.
 */
final class OutboxSweeper extends PeriodicWork {

    private static final Logger log = LoggerFactory.getLogger(OutboxSweeper.class);
    /** Pages read per SKU and sweep: each settled half-way order means reading the outbox again. */
    private static final int PAGES_PER_SKU_MAX = 20;
    /** SKUs of the register read, and their outboxes' lengths asked (pipelined), per round trip. */
    private static final int REGISTER_PAGE = 500;
    /** Keys the slow walk over every key looks at per sweep (Redis's scan count: about that many). */
    private static final int WALK_PAGE = 1_000;

    private final RedisGateway redis;
    private final Consumer<List<StockEvent>> forward;
    private final RedisProperties.Outbox settings;
    private final Clock clock;
    private final HalfWayOrders halfWay;
    /** Set once the ledger exists (it is built after the sweeper); until then such orders wait. */
    private volatile LeftSettlements leftSettlements = (order, state) -> false;
    /** Where the slow walk over every key goes on; null: at the start. Sweeps never overlap. */
    private ScanCursor walk;

    /** Finishes a confirm, cancel or expiry that its caller left half-way, as a retry of it would. */
    @FunctionalInterface
    interface LeftSettlements {
        /**
         * @param state the order record's state: CONFIRMING, CANCELLING or EXPIRING
         * @return false when it cannot be finished now: its changes stay in the outbox, and the
         *     next sweep tries again
         */
        boolean finish(OrderId order, String state);
    }

    /** @param forward makes events durable where they belong (applies them, or sends them on), idempotently */
    OutboxSweeper(RedisGateway redis, Consumer<List<StockEvent>> forward, HotOrders orders,
            HotStoreSource database, RedisProperties properties, TaskScheduler scheduler, Clock clock) {
        super(scheduler, properties.outbox().sweepInterval());
        this.redis = redis;
        this.forward = forward;
        this.settings = properties.outbox();
        this.clock = clock;
        this.halfWay = new HalfWayOrders(orders, new HotLines(redis, properties), database, redis, forward);
    }

    void finishLeftSettlementsWith(LeftSettlements finisher) {
        this.leftSettlements = finisher;
    }

    /**
     * One sweep over every outbox; returns how many entries (and half-way orders) it settled. The
     * outboxes are found through the register of loaded SKUs ({@link Keys#LOADED}), their lengths
     * asked a page at a time, so a sweep's cost follows the SKUs, not the order and line records
     * beside them; then one page of the slow walk over every key ({@link #walkOnePage}).
     */
    synchronized int sweep() {
        Instant before = clock.instant().minus(settings.minimumAge());
        Set<SkuId> swept = new HashSet<>();
        int settled = 0;
        ScanCursor cursor = null;
        do {
            RedisGateway.LoadedPage page = redis.loadedSkus(cursor, REGISTER_PAGE);
            List<Long> lengths = redis.outboxLengths(page.skus());
            for (int i = 0; i < page.skus().size(); i++) {
                SkuId sku = page.skus().get(i);
                // A set's scan may return a member twice.
                if (lengths.get(i) > 0 && swept.add(sku)) {
                    settled += settle(sku, before);
                }
            }
            cursor = page.next();
        } while (cursor != null);
        return settled + walkOnePage(before, swept);
    }

    /**
     * The backstop: a page of a walk over every key, which goes on where the last sweep's page
     * ended and starts over once it has been round. Each outbox it meets is put in the register and
     * swept, so an outbox the register does not name (the register lost with its node in a Cluster
     * failover, or made before this service had one) is found within a walk's time: about the
     * number of keys divided by {@link #WALK_PAGE} sweeps.
     */
    private int walkOnePage(Instant before, Set<SkuId> swept) {
        RedisGateway.ScanPage page;
        try {
            page = redis.scanOutboxes(walk, WALK_PAGE);
        } catch (RuntimeException e) {
            // A cursor a node that went away can no longer follow would stop the walk for good.
            walk = null;
            throw e;
        }
        walk = page.next();
        int settled = 0;
        for (String key : page.keys()) {
            SkuId sku = Keys.skuOfOutbox(key);
            if (sku != null && swept.add(sku)) {
                redis.registerLoadedNow(sku);
                settled += settle(sku, before);
            }
        }
        return settled;
    }

    /**
     * Forwards the SKU's entries older than {@code before} and removes them, a page at a time. The
     * reservation of an order whose request went away half-way is settled with the order's other
     * lines ({@link HalfWayOrders}), never on its own; an order a request still holds (reserving it, or
     * settling it) stops the SKU's sweep there until the next one.
     */
    private int settle(SkuId sku, Instant before) {
        String key = Keys.outbox(sku);
        Batch batch = new Batch(key);
        Set<OrderId> settledOrders = new HashSet<>();
        Set<OrderId> finishedOrders = new HashSet<>();
        boolean stopped = false;
        for (int page = 0; page < PAGES_PER_SKU_MAX && !stopped; page++) {
            boolean readAgain = false;
            Optional<List<StreamMessage<String, String>>> entries = oldest(sku);
            if (entries.isEmpty()) {
                // Not a copy of this Redis history (or none): nothing in it is journaled. A request or
                // the probe takes the SKU over, and its next load empties the outbox.
                break;
            }
            for (StreamMessage<String, String> entry : entries.get()) {
                StockEvent event = OutboxEvents.toEvent(entry.getBody());
                if (!event.occurredAt().isBefore(before)) {
                    break;
                }
                // An order finished in this sweep whose entry is still here (the database settled it
                // whole, say) is not finished twice: the entry is journaled as it is.
                if (event.op().isSettlement() && event.orderId() != null
                        && !finishedOrders.contains(event.orderId())) {
                    HotOrders.Settling settling = halfWay.settling(event.orderId(), clock.instant());
                    if (settling instanceof HotOrders.Settling.UnderWay) {
                        stopped = true;
                        break;
                    }
                    if (settling instanceof HotOrders.Settling.LeftHalfWay(String state)) {
                        // What precedes it in this outbox is journaled first, in its order.
                        batch.flush();
                        if (!finish(event.orderId(), state)) {
                            log.info("order {}: its settlement ({}) was left half-way and cannot be finished now; "
                                    + "its changes on SKU {} wait for the next sweep", event.orderId(), state, sku);
                            stopped = true;
                            break;
                        }
                        // Its changes here (and on its other SKUs) left the outbox: read it again.
                        finishedOrders.add(event.orderId());
                        readAgain = true;
                        break;
                    }
                }
                // An order settled in this sweep whose entry is still here is not settled twice: the
                // entry is journaled as it is.
                if (event.op() == StockOp.RESERVE && !settledOrders.contains(event.orderId())) {
                    HalfWayOrders.Outcome outcome = halfWay.settle(event.orderId(), clock.instant(), batch::flush);
                    if (outcome instanceof HalfWayOrders.Outcome.InProgress) {
                        break;
                    }
                    if (outcome instanceof HalfWayOrders.Outcome.Settled) {
                        // Its entries here (and on its other SKUs) left the outbox: read it again.
                        settledOrders.add(event.orderId());
                        readAgain = true;
                        break;
                    }
                }
                batch.add(entry.getId(), event);
            }
            batch.flush();
            if (!readAgain) {
                break;
            }
        }
        int orders = settledOrders.size() + finishedOrders.size();
        int settled = batch.flushed() + orders;
        if (settled > 0) {
            log.info("settled {} outbox entries of SKU {} and {} orders left half-way by requests that did not "
                    + "finish", batch.flushed(), sku, orders);
        }
        return settled;
    }

    /** Finishes a settlement left half-way; false when it cannot be now (a failure too: the next sweep tries again). */
    private boolean finish(OrderId order, String state) {
        try {
            return leftSettlements.finish(order, state);
        } catch (RuntimeException e) {
            // One order's failure must not stop the sweep of every other SKU.
            log.warn("order {}: finishing its settlement ({}) failed; the next sweep tries again: {}", order, state,
                    e.toString());
            return false;
        }
    }

    /**
     * The SKU's oldest outbox entries, read together with the check that its copy is one this Redis
     * history loaded ({@code outbox.lua}); empty when it is not.
     */
    private Optional<List<StreamMessage<String, String>>> oldest(SkuId sku) {
        String key = Keys.outbox(sku);
        Reply reply = new Reply(redis.run(Script.OUTBOX, List.of(Keys.meta(sku), key),
                List.of(Integer.toString(settings.batchSize()))));
        Optional<NotOwner> notOwner = NotOwner.of(reply);
        if (notOwner.isPresent()) {
            log.debug("outbox of SKU {} not swept: {}", sku, notOwner.get().why(-1));
            return Optional.empty();
        }
        if (!reply.is("OK")) {
            throw reply.unexpected("outbox.lua");
        }
        return Optional.of(entries(key, reply));
    }

    /** The entries of an {@code outbox.lua} reply of {@code OK}, as Lettuce gives XRANGE's. */
    static List<StreamMessage<String, String>> entries(String key, Reply reply) {
        List<StreamMessage<String, String>> entries = new ArrayList<>();
        for (Object raw : (List<?>) reply.values().get(1)) {
            List<?> entry = (List<?>) raw;
            List<?> fields = (List<?>) entry.get(1);
            Map<String, String> body = new LinkedHashMap<>();
            for (int i = 0; i + 1 < fields.size(); i += 2) {
                body.put(String.valueOf(fields.get(i)), String.valueOf(fields.get(i + 1)));
            }
            entries.add(new StreamMessage<>(key, String.valueOf(entry.get(0)), body));
        }
        return entries;
    }

    /** Entries of one SKU on their way to the journal. */
    private final class Batch {
        private final String key;
        private final List<StockEvent> events = new ArrayList<>();
        private final List<String> ids = new ArrayList<>();
        private int flushed;

        Batch(String key) {
            this.key = key;
        }

        void add(String id, StockEvent event) {
            ids.add(id);
            events.add(event);
        }

        /** Journals what was added and removes it from the outbox. */
        void flush() {
            if (events.isEmpty()) {
                return;
            }
            forward.accept(List.copyOf(events));
            redis.deleteFromOutbox(key, List.copyOf(ids));
            flushed += events.size();
            events.clear();
            ids.clear();
        }

        /** How many entries this batch has journaled in all. */
        int flushed() {
            return flushed;
        }
    }

    private void sweepSafely() {
        try {
            sweep();
        } catch (RuntimeException e) {
            log.warn("outbox sweep failed; retrying in {}", settings.sweepInterval(), e);
        }
    }

    @Override
    protected void runOnce() {
        sweepSafely();
    }
}
