package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.anyList;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.spy;
import static org.mockito.Mockito.when;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.stockguard.reservation.HotStoreSource;
import io.stockguard.reservation.ReservationState;
import io.stockguard.reservation.ReservationView;
import io.stockguard.reservation.ReservedLine;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The hot store's copy of an order is rewritten from the database lines first, record last, so
 * that an attempt that dies half-way never leaves a record the next attempt believes without its
 * lines (real Redis; the failure is injected at the line's write, and the database's copy of the
 * order is given, as it is not what is tested).
 *
 * <p>Found by the chaos suite: an order made and confirmed on the database path; an instance
 * killed while its cancel rewrote the order into the hot store, after the record and before the
 * line; the retry on the other instance found a current record with no line, took the missing
 * line for one never reserved (a tombstone) and acknowledged a cancel nothing journaled.
 */
class RewriteOrderIT {

    @RegisterExtension
    static final ScriptFixture redis = new ScriptFixture();

    private final Clock clock = Clock.systemUTC();

    @Test
    void aRewriteThatFailsAtTheLineLeavesNoRecordTheNextAttemptWouldBelieve() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        assertThat(redis.load(sku, 10).status()).isEqualTo("LOADED");
        HotStoreSource database = databaseWithConfirmed(order, sku);
        RedisGateway failingAtTheLine = spy(redis.redis);
        doThrow(new RedisGateway.HotStoreUnavailable("Redis failed: injected", null)).when(failingAtTheLine)
                .run(eq(Script.RESTORE_LINE), anyList(), anyList());

        assertThatThrownBy(() -> loader(failingAtTheLine, database).rewriteOrder(order, s -> ScriptFixture.EPOCH))
                .isInstanceOf(RedisGateway.HotStoreUnavailable.class);

        HotOrders orders = new HotOrders(redis.redis, ScriptFixture.properties(redis.server.uri()));
        assertThat(orders.get(order, clock.instant()))
                .as("no record of the order stamped with the epoch that owns its SKU, and without its line").isEmpty();

        loader(redis.redis, database).rewriteOrder(order, s -> ScriptFixture.EPOCH);
        assertThat(orders.get(order, clock.instant())).as("the next attempt writes the record").isPresent();
        assertThat(redis.server.command("GET", Keys.line(sku, order))).as("and the line, as the database has it")
                .startsWith("CONFIRMED|0|1|" + ScriptFixture.EPOCH);
    }

    private HotStockLoader loader(RedisGateway gateway, HotStoreSource database) {
        RedisProperties properties = ScriptFixture.properties(redis.server.uri());
        return new HotStockLoader(gateway, database, new HotOrders(gateway, properties), properties, clock,
                new ReplicaAcknowledgement(gateway, properties, new SimpleMeterRegistry()), Duration.ZERO);
    }

    private static HotStoreSource databaseWithConfirmed(OrderId order, SkuId sku) {
        Instant made = Instant.now().minusSeconds(5);
        ReservationView view = new ReservationView(order, ReservationState.CONFIRMED, List.of(new ReservedLine(sku, 1, 0)),
                made, made.plusSeconds(3600), made.plusSeconds(1), null, null, 0, null);
        HotStoreSource database = mock(HotStoreSource.class);
        when(database.storedOrder(order)).thenReturn(Optional.of(new HotStoreSource.StoredOrder(view, "fingerprint")));
        when(database.order(order)).thenReturn(Optional.of(view));
        return database;
    }
}
