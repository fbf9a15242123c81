package io.stockguard.bench.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.stockguard.bench.Catalogue;
import io.stockguard.bench.Contender;
import io.stockguard.bench.DescribedContender;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Base of the Redis contenders: one counter key per SKU, each client on its own connection (the
 * lock and WATCH techniques need one; the others get the same for a fair comparison).
 */
abstract class RedisContender extends DescribedContender {

    private static final int LOAD_BATCH = 1_000;

    protected final RedisClient client;

    RedisContender(RedisClient client, String name, String description, boolean claimsCorrectness) {
        super(name, description, claimsCorrectness);
        this.client = client;
        client.setDefaultTimeout(Duration.ofSeconds(5));
    }

    @Override
    public Family family() {
        return Family.REDIS;
    }

    static String key(String sku) {
        return "bench:stock:" + sku;
    }

    @Override
    public void load(Catalogue catalogue) {
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisCommands<String, String> redis = connection.sync();
            redis.flushdb();
            List<String> skus = catalogue.skus();
            for (int from = 0; from < skus.size(); from += LOAD_BATCH) {
                Map<String, String> values = new HashMap<>();
                for (String sku : skus.subList(from, Math.min(skus.size(), from + LOAD_BATCH))) {
                    values.put(key(sku), Long.toString(catalogue.unitsPerSku()));
                }
                redis.mset(values);
            }
        }
    }

    @Override
    public long[] remaining(Catalogue catalogue) {
        long[] remaining = new long[catalogue.size()];
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisCommands<String, String> redis = connection.sync();
            List<String> skus = catalogue.skus();
            for (int from = 0; from < skus.size(); from += LOAD_BATCH) {
                String[] keys = skus.subList(from, Math.min(skus.size(), from + LOAD_BATCH)).stream()
                        .map(RedisContender::key).toArray(String[]::new);
                var values = redis.mget(keys);
                for (int i = 0; i < values.size(); i++) {
                    remaining[from + i] = values.get(i).hasValue() ? Long.parseLong(values.get(i).getValue()) : 0;
                }
            }
        }
        return remaining;
    }

    /** A session on one connection of its own. */
    abstract static class RedisSession implements Session {

        protected final StatefulRedisConnection<String, String> connection;
        protected final RedisCommands<String, String> redis;

        RedisSession(StatefulRedisConnection<String, String> connection) {
            this.connection = connection;
            this.redis = connection.sync();
        }

        @Override
        public long read(String sku) {
            String value = redis.get(key(sku));
            return value == null ? 0 : Long.parseLong(value);
        }

        @Override
        public void close() {
            connection.close();
        }
    }
}
