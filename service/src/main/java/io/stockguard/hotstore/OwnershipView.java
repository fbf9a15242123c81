package io.stockguard.hotstore;

import io.stockguard.platform.PeriodicWork;
import io.stockguard.reservation.Ownership;
import io.stockguard.reservation.OwnershipStore;
import io.stockguard.stock.SkuId;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This instance's view of who owns each SKU: read from the database on first use, then kept
 * current by following the numbered ownership changes every {@link #REFRESH_INTERVAL}. Routing
 * decides on it; the hot store's scripts are told the epoch it names and refuse any other, and
 * the database applies only its owner's changes, so a view that is a moment old can delay a
 * request but never let a stale hot store sell.
 */
final class OwnershipView extends PeriodicWork {

    private static final Logger log = LoggerFactory.getLogger(OwnershipView.class);
    static final Duration REFRESH_INTERVAL = Duration.ofMillis(200);
    /** Changes read per query; a refresh reads pages until it is current. */
    private static final int PAGE = 1_000;
    /** Pages per refresh: a view far behind (a mass hand-over) catches up over a few refreshes. */
    private static final int PAGES_PER_REFRESH_MAX = 50;
    /** SKUs remembered; beyond this the view starts over (every SKU is read again on its next use). */
    private static final int SKUS_MAX = 2_000_000;

    private final OwnershipStore store;
    /** Each SKU's ownership with the number of the change that made it: a newer number always wins. */
    private final Map<SkuId, OwnershipStore.Change> owners = new ConcurrentHashMap<>();
    /**
     * The SKUs {@link #owners} says are draining, kept beside it so the hand-over worker finds them
     * without a walk over the whole catalogue (100,000 SKUs walked every 250 ms kept about 4 % of a
     * core busy for as long as the service ran, and more with a larger catalogue); changed only
     * inside the map's own update of the SKU, so a late, older reading cannot put a drained SKU back.
     */
    private final Set<SkuId> draining = ConcurrentHashMap.newKeySet();
    private volatile OwnershipStore.Position position;

    private OwnershipView(OwnershipStore store, String threadName) {
        super(threadName, REFRESH_INTERVAL);
        this.store = store;
    }

    /**
     * A view that follows the changes on a thread of its own. On the shared scheduler, sweepers
     * waiting out Redis timeouts held it back for seconds (seen in the chaos suite), and an instance
     * went on selling on an epoch handed over meanwhile; with Kafka such sales are acknowledged
     * before the database fences them. The hand-over delay bounds how far a view lags only if
     * nothing else can hold the view back.
     */
    static OwnershipView onItsOwnThread(OwnershipStore store) {
        return new OwnershipView(store, "stockguard-ownership");
    }

    /** The SKU's ownership as this instance knows it; empty for a SKU the database does not have. */
    Optional<Ownership> get(SkuId sku) {
        OwnershipStore.Change known = owners.get(sku);
        if (known != null) {
            return Optional.of(known.ownership());
        }
        ensureFollowing();
        return reread(sku);
    }

    /** Reads the SKU's ownership from the database now (after a refusal showed the view was behind). */
    Optional<Ownership> reread(SkuId sku) {
        Optional<OwnershipStore.Change> read = store.current(sku);
        read.ifPresent(this::remember);
        return read.map(OwnershipStore.Change::ownership);
    }

    /** A transition this instance just made: known here at once, and to the others at their next refresh. */
    void update(SkuId sku, Ownership ownership) {
        reread(sku);
    }

    /** The SKUs the view knows to be draining (for the hand-over worker), at most {@code limit}. */
    List<SkuId> draining(int limit) {
        return draining.stream().limit(limit).toList();
    }

    /** Keeps whichever of the known and the new reading was made by the later change. */
    private void remember(OwnershipStore.Change change) {
        if (owners.size() >= SKUS_MAX && !owners.containsKey(change.skuId())) {
            log.warn("the ownership view holds {} SKUs; starting over", owners.size());
            owners.clear();
            draining.clear();
        }
        owners.compute(change.skuId(), (sku, old) -> {
            OwnershipStore.Change kept = old == null || change.position().seq() >= old.position().seq() ? change : old;
            if (kept.ownership() instanceof Ownership.Draining) {
                draining.add(sku);
            } else {
                draining.remove(sku);
            }
            return kept;
        });
    }

    /**
     * The position must be taken before the first SKU is read, or a change made between that read
     * and the first refresh would be missed.
     */
    private void ensureFollowing() {
        if (position == null) {
            synchronized (this) {
                if (position == null) {
                    position = store.position();
                }
            }
        }
    }

    void refresh() {
        ensureFollowing();
        for (int page = 0; page < PAGES_PER_REFRESH_MAX; page++) {
            List<OwnershipStore.Change> changes = store.changesSince(position, PAGE);
            for (OwnershipStore.Change change : changes) {
                remember(change);
                position = change.position();
            }
            if (changes.size() < PAGE) {
                return;
            }
        }
    }

    @Override
    protected void runOnce() {
        try {
            refresh();
        } catch (RuntimeException e) {
            log.warn("following ownership changes failed; retrying in {}", REFRESH_INTERVAL, e);
        }
    }
}
