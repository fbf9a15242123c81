package io.stockguard.hotstore;

import io.stockguard.hotstore.HotStore.HotBucket;
import io.stockguard.hotstore.HotStore.Snapshot;
import io.stockguard.stock.SkuId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code snapshot.lua}'s Java side: a SKU's copy in the hot store read in one atomic step (its
 * header is the contract), parsed here once for the probe, the stock read, the console and the
 * lost-writes check.
 */
final class SkuSnapshots {

    /** What a read found. */
    sealed interface Read {
        /** The copy, as one consistent state. */
        record Found(Snapshot snapshot) implements Read {
        }

        /** No copy to read: the hot store lost the SKU, or has a copy of another Redis history. */
        record NotHere(NotOwner why) implements Read {
        }
    }

    private final RedisGateway redis;

    SkuSnapshots(RedisGateway redis) {
        this.redis = redis;
    }

    /** The copy loaded under this Redis history. */
    Read current(SkuId sku) {
        return read(sku, false);
    }

    /** The copy whatever history loaded it: only to tell how far behind the database it fell; nothing is sold on it. */
    Read anyHistory(SkuId sku) {
        return read(sku, true);
    }

    private Read read(SkuId sku, boolean anyHistory) {
        Reply reply = new Reply(redis.run(Script.SNAPSHOT, List.of(Keys.meta(sku), Keys.buckets(sku),
                Keys.outbox(sku)), anyHistory ? List.of("ANY_HISTORY") : List.of()));
        if (!reply.is("OK")) {
            Optional<NotOwner> why = NotOwner.of(reply);
            if (why.isEmpty()) {
                throw reply.unexpected("snapshot.lua");
            }
            return new Read.NotHere(why.get());
        }
        int n = (int) reply.number(3);
        List<HotBucket> buckets = new ArrayList<>(n);
        for (int b = 0; b < n; b++) {
            int base = 5 + b * 5;
            buckets.add(new HotBucket(b, reply.number(base), reply.number(base + 1), reply.number(base + 2),
                    reply.number(base + 3), reply.number(base + 4)));
        }
        return new Read.Found(new Snapshot(sku, reply.number(1), reply.string(2), reply.number(4), buckets));
    }
}
