package io.stockguard.bench.stockguard;

import io.stockguard.bench.Contender;
import io.stockguard.platform.Actor;
import io.stockguard.platform.Caller;
import io.stockguard.reservation.Refusal;
import io.stockguard.reservation.ReservationOutcome;
import io.stockguard.reservation.Reservations;
import io.stockguard.reservation.ReserveCommand;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.StockLine;
import java.time.Duration;
import java.util.List;

/** A session calling the service's {@link Reservations} in this JVM, with what its HTTP controller would pass. */
final class InProcessSession implements Contender.Session {

    private static final Caller CALLER = new Caller(new Actor(Actor.Kind.API_KEY, "bench"), null);
    private static final Duration TTL = Duration.ofMinutes(15);

    private final Reservations reservations;

    InProcessSession(Reservations reservations) {
        this.reservations = reservations;
    }

    @Override
    public Contender.Attempt reserve(String sku, int qty, String orderId) {
        ReservationOutcome outcome = reservations.reserve(new ReserveCommand(OrderId.of(orderId),
                List.of(new StockLine(SkuId.of(sku), qty)), TTL, false, CALLER));
        return switch (outcome) {
            case ReservationOutcome.Reserved reserved -> Contender.Attempt.SOLD;
            case Refusal.InsufficientStock refusal -> Contender.Attempt.SOLD_OUT;
            case Refusal refusal -> new Contender.Attempt(Contender.Outcome.ERROR, 0);
        };
    }

    @Override
    public long read(String sku) {
        return reservations.availability(SkuId.of(sku)).orElseThrow().available();
    }
}
