package io.stockguard.bench.redis;

import io.lettuce.core.RedisClient;

/** GET, check in code, DECRBY: check and change are two commands, so concurrent buyers both pass. */
public final class NaiveGetDecr extends RedisContender {

    public NaiveGetDecr(RedisClient client) {
        super(client, "redis-naive", "GET, check in code, DECRBY", false);
    }

    @Override
    public Session open() {
        return new RedisSession(client.connect()) {
            @Override
            public Attempt reserve(String sku, int qty, String orderId) {
                if (read(sku) < qty) {
                    return Attempt.SOLD_OUT;
                }
                redis.decrby(key(sku), qty);
                return Attempt.SOLD;
            }
        };
    }
}
