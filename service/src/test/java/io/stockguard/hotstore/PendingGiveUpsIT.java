package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.stockguard.stock.OrderId;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.scheduling.concurrent.ConcurrentTaskScheduler;

/**
 * A give-up Redis could not take when it was made is written once Redis answers again, so a
 * retry resumes the order at once instead of hearing "in progress" until the record goes stale.
 */
class PendingGiveUpsIT {

    @Test
    void aGiveUpMadeWhileRedisWasAwayIsWrittenOnceItIsBack() {
        CircuitBreaker breaker = CircuitBreaker.ofDefaults("give-ups");
        try (ScriptFixture redis = new ScriptFixture();
                RedisGateway gateway = new RedisGateway(ScriptFixture.properties(redis.server.uri()), breaker)) {
            HotOrders orders = new HotOrders(gateway, ScriptFixture.properties(redis.server.uri()));
            PendingGiveUps giveUps = new PendingGiveUps(orders, Clock.systemUTC(), new ConcurrentTaskScheduler());
            OrderId order = ScriptFixture.order();
            long now = System.currentTimeMillis();
            assertThat(open(redis, order, now).status()).isEqualTo("NEW");
            assertThat(open(redis, order, now + 1).status()).as("its request still holds it").isEqualTo("BUSY");

            // Redis failed, the breaker opened: the request's own give-up was refused at once.
            breaker.transitionToForcedOpenState();
            giveUps.add(order, "fp");
            giveUps.runOnce();
            assertThat(open(redis, order, now + 2).status()).as("not written while Redis was away").isEqualTo("BUSY");

            breaker.transitionToClosedState();
            giveUps.runOnce();

            assertThat(open(redis, order, now + 3).status()).as("the retry resumes it at once").isEqualTo("RESUME");
        }
    }

    private static Reply open(ScriptFixture redis, OrderId order, long now) {
        List<String> arguments = new ArrayList<>(List.of("OPEN", Long.toString(now), "fp", "A|1",
                Long.toString(now + 900_000), "", "3600", "30000", ""));
        return redis.run(Script.ORDER, List.of(Keys.order(order)), arguments);
    }
}
