package io.stockguard.bench.redis;

import io.lettuce.core.RedisClient;

/** Optimistic transactions: WATCH, GET, check, MULTI/DECRBY/EXEC; retry up to 3 times when EXEC aborts. */
public final class WatchMulti extends RedisContender {

    static final int RETRIES_MAX = 3;

    public WatchMulti(RedisClient client) {
        super(client, "redis-watch",
                "WATCH, GET, check, MULTI DECRBY EXEC; retry up to " + RETRIES_MAX + " times", true);
    }

    @Override
    public Session open() {
        return new RedisSession(client.connect()) {
            @Override
            public Attempt reserve(String sku, int qty, String orderId) {
                String key = key(sku);
                for (int attempt = 0; attempt <= RETRIES_MAX; attempt++) {
                    redis.watch(key);
                    if (read(sku) < qty) {
                        redis.unwatch();
                        return new Attempt(Outcome.SOLD_OUT, attempt);
                    }
                    redis.multi();
                    redis.decrby(key, qty);
                    if (!redis.exec().wasDiscarded()) {
                        return new Attempt(Outcome.SOLD, attempt);
                    }
                }
                return new Attempt(Outcome.GAVE_UP, RETRIES_MAX);
            }
        };
    }
}
