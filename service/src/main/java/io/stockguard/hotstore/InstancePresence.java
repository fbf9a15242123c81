package io.stockguard.hotstore;

import io.stockguard.platform.PeriodicWork;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This instance's presence in Redis: a key it renews every second, with a lifetime Redis counts
 * ({@value #LEASE_SECONDS} s), and deletes when it stops. A request for an order whose record is
 * held by an attempt of an instance no longer present takes the record over at once, naming the
 * holder it found gone (order.lua OPEN takes over only from that holder), instead of waiting for
 * the record to go quiet for {@code opening-stale}: a killed instance's orders are answered within
 * seconds. No clock of an instance decides it (Redis expires the key), and an instance that was only
 * starved finds its record taken when it comes back (CLOSE, ABORT and GIVE_UP answer TAKEN).
 */
final class InstancePresence extends PeriodicWork {

    private static final Logger log = LoggerFactory.getLogger(InstancePresence.class);
    private static final Duration RENEW_EVERY = Duration.ofSeconds(1);
    /** Ten renewals: an instance starved of CPU for less keeps its records. */
    static final long LEASE_SECONDS = 10;

    private final RedisGateway redis;
    private final String name = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());

    InstancePresence(RedisGateway redis) {
        super("stockguard-presence", RENEW_EVERY);
        this.redis = redis;
    }

    /** A new attempt of this instance at an order's record. */
    Attempt nextAttempt() {
        return new Attempt(name + "." + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong()));
    }

    /**
     * Whether the instance that made {@code holder} (an attempt's id) is gone from Redis. False for
     * this instance's own attempts, for holders that name no instance (records written before
     * instances were named, the outbox sweeper's claims), and when Redis cannot be asked.
     */
    boolean gone(String holder) {
        int dot = holder == null ? -1 : holder.indexOf('.');
        if (dot <= 0 || holder.substring(0, dot).equals(name)) {
            return false;
        }
        try {
            return !redis.exist(List.of(Keys.instance(holder.substring(0, dot)))).getFirst();
        } catch (RedisGateway.HotStoreUnavailable e) {
            return false;
        }
    }

    @Override
    protected void runOnce() {
        try {
            redis.set(Keys.instance(name), "1", Duration.ofSeconds(LEASE_SECONDS));
        } catch (RuntimeException e) {
            log.debug("presence not renewed: {}", e.toString());
        }
    }

    @Override
    public void stop() {
        super.stop();
        try {
            redis.delete(Keys.instance(name));
        } catch (RuntimeException e) {
            log.debug("presence not removed (it expires): {}", e.toString());
        }
    }
}
