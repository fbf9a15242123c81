package io.stockguard.reservation;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.stockguard.platform.Caller;
import io.stockguard.platform.InvalidRequestException;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.StockLine;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.TransactionSystemException;

/**
 * The reservation API every caller uses, in front of whichever {@link StockLedger} the tier
 * configures. It measures every operation, retries a lost lock race a bounded number of times,
 * and turns store failures into refusals that say whether the change may have been applied.
 */
@Service
public class Reservations {

    private static final Logger log = LoggerFactory.getLogger(Reservations.class);

    private final StockLedger ledger;
    private final ReservationProperties properties;
    private final MeterRegistry meters;
    private final AvailabilityReads availability;

    Reservations(StockLedger ledger, ReservationProperties properties, MeterRegistry meters) {
        this.ledger = ledger;
        this.properties = properties;
        this.meters = meters;
        this.availability = new AvailabilityReads(ledger::stock, properties.availabilityMaxAge(), meters);
    }

    public ReservationOutcome reserve(ReserveCommand command) {
        ReservationOutcome outcome = measured("reserve", () -> ledger.reserve(command));
        if (mayHaveChanged(outcome)) {
            availability.changed(command.lines().stream().map(StockLine::skuId).toList());
        }
        return outcome;
    }

    public OrderOutcome confirm(OrderId orderId, Caller caller) {
        return changedOrder(measured("confirm", () -> ledger.confirm(orderId, caller)));
    }

    public OrderOutcome cancel(OrderId orderId, Caller caller) {
        return changedOrder(measured("cancel", () -> ledger.cancel(orderId, caller)));
    }

    /** Extends a held order's hold, within {@code stockguard.reservation.extension.*}. */
    public OrderOutcome extend(HoldExtension extension) {
        ReservationProperties.Extension rules = properties.extension();
        if (extension.hold().compareTo(rules.holdMax()) > 0) {
            throw new InvalidRequestException("ttlSeconds", "must not exceed " + rules.holdMax().toSeconds()
                    + " (stockguard.reservation.extension.hold-max): a hold lasts at most that long in all");
        }
        if (!rules.enabled()) {
            // Refused as the order's own state would refuse it first: unknown, or no longer held.
            Optional<ReservationView> found = ledger.reservation(extension.orderId());
            if (found.isEmpty()) {
                return new Refusal.UnknownOrder(extension.orderId());
            }
            ReservationView order = found.get();
            return switch (order.state()) {
                case RESERVED -> new Refusal.ExtensionLimit(order.orderId(), order.expiresAt(), order.extensions(),
                        true);
                case CONFIRMED, CANCELLED, EXPIRED -> Refusal.movedOn(order.orderId(), order.state());
            };
        }
        return measured("extend", () -> ledger.extend(extension));
    }

    public StockChangeOutcome apply(StockCommand command) {
        StockChangeOutcome outcome = measured(operationOf(command), () -> ledger.apply(command));
        if (mayHaveChanged(outcome)) {
            availability.changed(List.of(command.skuId()));
        }
        return outcome;
    }

    /** The SKU's stock as the store has it now: for people and systems that act on it. */
    public Optional<SkuStockView> stock(SkuId skuId) {
        return ledger.stock(skuId);
    }

    /**
     * The SKU's stock for a product page: at most {@code stockguard.reservation.availability-max-age}
     * old, and showing every change this instance acknowledged before the query ({@link AvailabilityReads}).
     */
    public Optional<SkuStockView> availability(SkuId skuId) {
        return availability.get(skuId);
    }

    public Duration availabilityMaxAge() {
        return availability.maxAge();
    }

    public Optional<ReservationView> reservation(OrderId orderId) {
        return ledger.reservation(orderId);
    }

    public Duration defaultTtl() {
        return properties.defaultTtl();
    }

    /** Whether an operation that answered this may have changed stock: anything but a refusal that applied nothing. */
    private static boolean mayHaveChanged(Object outcome) {
        return !(outcome instanceof Refusal refusal)
                || refusal instanceof Refusal.Unavailable unavailable && unavailable.outcomeUnknown();
    }

    /** A confirm or cancel: its order's SKUs changed, or any SKU when its outcome is unknown. */
    private OrderOutcome changedOrder(OrderOutcome outcome) {
        if (outcome instanceof OrderOutcome.Updated updated) {
            availability.changed(updated.reservation().lines().stream().map(ReservedLine::skuId).toList());
        } else if (mayHaveChanged(outcome)) {
            availability.changedAll();
        }
        return outcome;
    }

    private <T> T measured(String operation, Supplier<T> call) {
        Timer.Sample sample = Timer.start(meters);
        T outcome = withRetries(operation, call);
        sample.stop(Timer.builder("stockguard.operations")
                .description("Reservation and stock operations by outcome and serving path")
                .tag("op", operation)
                .tag("outcome", outcomeTag(outcome))
                .tag("path", ledger.path())
                .publishPercentileHistogram()
                .register(meters));
        return outcome;
    }

    /**
     * Every ledger operation is idempotent and rolls back completely when it fails, so repeating
     * one that lost a lock race (a deadlock victim, a lock wait timeout) cannot apply it twice.
     */
    @SuppressWarnings("unchecked")
    private <T> T withRetries(String operation, Supplier<T> call) {
        for (int attempt = 1; ; attempt++) {
            try {
                return call.get();
            } catch (ConcurrencyFailureException e) {
                if (attempt >= properties.lockRetries()) {
                    log.warn("{} lost {} lock races in a row; answering UNAVAILABLE", operation, attempt, e);
                    return (T) new Refusal.Unavailable(false, "lock contention");
                }
            } catch (TransactionSystemException e) {
                log.error("{} failed while committing; outcome unknown", operation, e);
                return (T) new Refusal.Unavailable(true, "database failed during commit");
            } catch (DataAccessException | TransactionException e) {
                log.warn("{} failed before committing; nothing applied", operation, e);
                return (T) new Refusal.Unavailable(false, "database unavailable");
            }
        }
    }

    private static String outcomeTag(Object outcome) {
        return switch (outcome) {
            case Refusal refusal -> refusal.code().name();
            case ReservationOutcome.Reserved reserved -> reserved.replayed() ? "REPLAYED" : "OK";
            case OrderOutcome.Updated updated -> updated.replayed() ? "REPLAYED" : "OK";
            case StockChangeOutcome.Changed changed -> changed.replayed() ? "REPLAYED" : "OK";
            default -> "OK";
        };
    }

    private static String operationOf(StockCommand command) {
        return switch (command) {
            case StockCommand.Upsert upsert -> "upsert";
            case StockCommand.Restock restock -> "restock";
            case StockCommand.Adjust adjust -> "adjust";
        };
    }
}
