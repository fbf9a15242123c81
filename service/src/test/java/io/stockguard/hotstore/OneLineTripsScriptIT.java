package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.platform.Caller;
import io.stockguard.reservation.ReservationState;
import io.stockguard.reservation.ReserveCommand;
import io.stockguard.reservation.ReservedLine;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.StockLine;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * open_reserve.lua and forget_close.lua against a real Redis: a one-line order's steps joined in
 * two trips answer as the steps called one by one do, and reserve nothing where OPEN would not let
 * the reservation begin.
 */
class OneLineTripsScriptIT {

    @RegisterExtension
    static final ScriptFixture redis = new ScriptFixture();

    private static final Instant NOW = Instant.ofEpochMilli(1_000);

    private final HotOrders orders = new HotOrders(redis.redis, ScriptFixture.properties(redis.server.uri()));
    private final HotLines lines = new HotLines(redis.redis, ScriptFixture.properties(redis.server.uri()));
    private final OneLineTrips trips = new OneLineTrips(redis.redis, orders, lines);

    private static ReserveCommand command(OrderId order, SkuId sku, int qty) {
        return new ReserveCommand(order, List.of(new StockLine(sku, qty)), Duration.ofMinutes(15), false,
                Caller.SYSTEM);
    }

    private OneLineTrips.Opening openAndReserve(ReserveCommand command, Attempt attempt) {
        return trips.openAndReserve(command, NOW, NOW.plus(command.ttl()), null, attempt, ScriptFixture.EPOCH, 0, 1);
    }

    @Test
    void aNewOrderIsOpenedReservedForgottenAndClosedInTwoTrips() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 10);
        Attempt attempt = new Attempt("test.1");

        OneLineTrips.Opening opening = openAndReserve(command(order, sku, 3), attempt);

        assertThat(opening.opened()).isEqualTo(new OpenReply.Opened(false));
        assertThat(opening.reserved()).isInstanceOf(ReserveReply.Made.class);
        HotLines.Change change = ((ReserveReply.Made) opening.reserved()).change();
        assertThat(change.skuId()).isEqualTo(sku);
        assertThat(redis.field(sku, 0, 'a')).isEqualTo(7);
        assertThat(redis.field(sku, 0, 'r')).isEqualTo(3);
        assertThat(redis.outboxIds(sku)).containsExactlyElementsOf(change.entryIds());
        assertThat(orders.get(order, NOW).orElseThrow().state()).isEqualTo("OPENING");

        HotOrders.Closing closing = trips.forgetAndClose(order, sku, change.entryIds(), ReservationState.RESERVED,
                List.of(new ReservedLine(sku, 3, change.bucket())), Map.of(sku, ScriptFixture.EPOCH), NOW, attempt);

        assertThat(closing).isEqualTo(new HotOrders.Closing.Closed());
        assertThat(redis.outboxLength(sku)).as("the journaled entries left the outbox").isZero();
        assertThat(orders.get(order, NOW).orElseThrow().state()).isEqualTo("RESERVED");
        assertThat(redis.field(sku, 0, 'r')).isEqualTo(3);
    }

    @Test
    void aRetryOfAClosedOrderIsAnsweredByItsRecordAndReservesNothing() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 10);
        Attempt attempt = new Attempt("test.2");
        ReserveCommand command = command(order, sku, 3);
        HotLines.Change change = ((ReserveReply.Made) openAndReserve(command, attempt).reserved()).change();
        trips.forgetAndClose(order, sku, change.entryIds(), ReservationState.RESERVED,
                List.of(new ReservedLine(sku, 3, change.bucket())), Map.of(sku, ScriptFixture.EPOCH), NOW, attempt);

        OneLineTrips.Opening retry = openAndReserve(command, new Attempt("test.3"));

        assertThat(retry.opened()).isInstanceOf(OpenReply.Done.class);
        assertThat(retry.reserved()).as("nothing reserved").isNull();
        assertThat(redis.field(sku, 0, 'a')).isEqualTo(7);
        assertThat(redis.outboxLength(sku)).isZero();
    }

    @Test
    void anOrderAnotherAttemptHoldsIsBusyAndReservesNothing() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 10);
        ReserveCommand command = command(order, sku, 3);
        openAndReserve(command, new Attempt("test.4"));

        OneLineTrips.Opening twin = openAndReserve(command, new Attempt("test.5"));

        assertThat(twin.opened()).isInstanceOf(OpenReply.Busy.class);
        assertThat(twin.reserved()).isNull();
        assertThat(redis.field(sku, 0, 'a')).as("taken once").isEqualTo(7);
        assertThat(redis.outboxLength(sku)).isEqualTo(1);
    }

    @Test
    void anOrderCancelledBeforeItWasMadeIsRefusedAndReservesNothing() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 10);
        redis.run(Script.ORDER, List.of(Keys.order(order)), List.of("CANCEL", "1000", "3600", "30000"));

        OneLineTrips.Opening opening = openAndReserve(command(order, sku, 3), new Attempt("test.6"));

        assertThat(opening.opened()).isInstanceOf(OpenReply.Cancelled.class);
        assertThat(opening.reserved()).isNull();
        assertThat(redis.field(sku, 0, 'a')).isEqualTo(10);
        assertThat(redis.outboxLength(sku)).isZero();
    }

    @Test
    void aRefusedLineLeavesTheRecordOpenedForTheCallerToAbort() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 2);

        OneLineTrips.Opening opening = openAndReserve(command(order, sku, 3), new Attempt("test.7"));

        assertThat(opening.opened()).isEqualTo(new OpenReply.Opened(false));
        assertThat(opening.reserved()).isEqualTo(new ReserveReply.Short(2));
        assertThat(redis.field(sku, 0, 'a')).isEqualTo(2);
        assertThat(orders.get(order, NOW).orElseThrow().state()).isEqualTo("OPENING");
    }

    @Test
    void theJoinedStepsAskForTheRedisHistoryOnce() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 10);
        io.lettuce.core.RedisClient client = io.lettuce.core.RedisClient.create(redis.server.uri());
        try (var connection = client.connect()) {
            connection.sync().configResetstat();

            openAndReserve(command(order, sku, 3), new Attempt("test.8"));

            assertThat(connection.sync().info("commandstats")).as("OPEN and the reserve share one INFO")
                    .containsPattern("cmdstat_info:calls=1,");
        } finally {
            client.shutdown();
        }
    }
}
