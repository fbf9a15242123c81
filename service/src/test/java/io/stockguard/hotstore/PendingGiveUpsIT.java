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
            assertThat(open(redis, order, now, "first").status()).isEqualTo("NEW");
            assertThat(open(redis, order, now + 1, "twin").status()).as("its request still holds it").isEqualTo("BUSY");

            // Redis failed, the breaker opened: the request's own give-up was refused at once.
            breaker.transitionToForcedOpenState();
            giveUps.add(order, "fp", new Attempt("first"));
            giveUps.runOnce();
            assertThat(open(redis, order, now + 2, "twin").status()).as("not written while Redis was away")
                    .isEqualTo("BUSY");

            breaker.transitionToClosedState();
            giveUps.runOnce();

            assertThat(open(redis, order, now + 3, "retry").status()).as("the retry resumes it at once")
                    .isEqualTo("RESUME");

            // The first attempt's give-up again, late (kept twice): it no longer holds the record.
            giveUps.add(order, "fp", new Attempt("first"));
            giveUps.runOnce();
            assertThat(open(redis, order, now + 4, "twin").status()).as("the retry still holds it").isEqualTo("BUSY");
        }
    }

    private static Reply open(ScriptFixture redis, OrderId order, long now, String attempt) {
        List<String> arguments = new ArrayList<>(List.of("OPEN", Long.toString(now), "fp", "A|1",
                Long.toString(now + 900_000), "", "3600", "30000", "", attempt));
        return redis.run(Script.ORDER, List.of(Keys.order(order)), arguments);
    }
}
