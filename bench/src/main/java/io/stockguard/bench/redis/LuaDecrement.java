package io.stockguard.bench.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;

/**
 * The post-mortem's bare Lua check-and-decrement (loaded once, called by SHA): one round trip, atomic in
 * Redis. It keeps no journal, no idempotency and no freeze gate, so nothing correct on Redis can
 * be faster: it is the ceiling StockGuard's Redis paths are measured against.
 */
public final class LuaDecrement extends RedisContender {

    private final String script = Scripts.load("bare_decrement.lua");
    private String sha;

    public LuaDecrement(RedisClient client) {
        super(client, "redis-lua",
                "bare Lua GET-check-DECRBY by EVALSHA (the ceiling: no journal, no idempotency)", true);
    }

    @Override
    public void load(io.stockguard.bench.Catalogue catalogue) {
        super.load(catalogue);
        try (var connection = client.connect()) {
            sha = connection.sync().scriptLoad(script);
        }
    }

    @Override
    public Session open() {
        return new RedisSession(client.connect()) {
            @Override
            public Attempt reserve(String sku, int qty, String orderId) {
                Long taken = redis.evalsha(sha, ScriptOutputType.INTEGER, new String[] {key(sku)},
                        Integer.toString(qty));
                return taken == 1 ? Attempt.SOLD : Attempt.SOLD_OUT;
            }
        };
    }
}
