package io.stockguard.hotstore;

import io.stockguard.journal.HotStoreLostWrites;
import io.stockguard.reservation.HotStoreSource;
import io.stockguard.stock.SkuId;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;

/** Tells people when a copy a failover or restart left behind had lost acknowledged writes. */
final class LostWrites {

    private static final Logger log = LoggerFactory.getLogger(LostWrites.class);

    private final RedisGateway redis;
    private final HotStoreSource source;
    private final ApplicationEventPublisher events;
    private final Clock clock;

    LostWrites(RedisGateway redis, HotStoreSource source, ApplicationEventPublisher events, Clock clock) {
        this.redis = redis;
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
            Reply copy = new Reply(redis.run(Script.SNAPSHOT, List.of(Keys.meta(sku), Keys.buckets(sku),
                    Keys.outbox(sku)), List.of("ANY_HISTORY")));
            if (!copy.is("OK") || copy.number(1) != epoch) {
                return;
            }
            Map<Integer, Long> applied = source.appliedSequences(sku, epoch);
            int buckets = (int) copy.number(3);
            long lost = 0;
            for (int b = 0; b < buckets; b++) {
                lost += Math.max(0, applied.getOrDefault(b, 0L) - copy.number(5 + b * 5 + 4));
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
