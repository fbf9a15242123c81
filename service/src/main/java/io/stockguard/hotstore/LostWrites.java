package io.stockguard.hotstore;

import io.stockguard.journal.HotStoreLostWrites;
import io.stockguard.reservation.HotStoreSource;
import io.stockguard.stock.SkuId;
import java.time.Clock;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;

/** Tells people when a copy a failover or restart left behind had lost acknowledged writes. */
final class LostWrites {

    private static final Logger log = LoggerFactory.getLogger(LostWrites.class);

    private final SkuSnapshots snapshots;
    private final HotStoreSource source;
    private final ApplicationEventPublisher events;
    private final Clock clock;

    LostWrites(RedisGateway redis, HotStoreSource source, ApplicationEventPublisher events, Clock clock) {
        this.snapshots = new SkuSnapshots(redis);
        this.source = source;
        this.events = events;
        this.clock = clock;
    }

    /**
     * After a failover or restart, whether the old copy of the SKU had lost acknowledged writes:
     * the database applied a change of its epoch with a sequence the copy never reached. Nothing
     * was sold from the copy (the history fence), but people must hear that Redis lost writes it had
     * acknowledged, at the level of the probe's regression alert. With Kafka the database may not
     * have applied them yet; the probe, which compares later, tells then.
     */
    void tell(SkuId sku, long epoch) {
        try {
            if (!(snapshots.anyHistory(sku) instanceof SkuSnapshots.Read.Found(HotStore.Snapshot copy))
                    || copy.epoch() != epoch) {
                return;
            }
            Map<Integer, Long> applied = source.appliedSequences(sku, epoch);
            long lost = 0;
            for (HotStore.HotBucket bucket : copy.buckets()) {
                lost += Math.max(0, applied.getOrDefault(bucket.bucket(), 0L) - bucket.sequence());
            }
            if (lost > 0) {
                String why = "SKU " + sku + " at epoch " + epoch + ": the Redis copy a failover or restart left behind "
                        + "lacks " + lost + " acknowledged change(s) the database applied; nothing was sold from it";
                log.error("{}: the database sells the SKU until it is reloaded", why);
                events.publishEvent(new HotStoreLostWrites(sku, epoch, why, clock.instant()));
            }
        } catch (RedisGateway.HotStoreUnavailable | org.springframework.dao.DataAccessException e) {
            log.debug("SKU {}: whether its old copy lost writes is not known: {}", sku, e.getMessage());
        }
    }
}
