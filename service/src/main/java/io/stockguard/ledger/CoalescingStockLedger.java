package io.stockguard.ledger;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.stockguard.platform.Caller;
import io.stockguard.platform.Combiner;
import io.stockguard.reservation.HoldExtension;
import io.stockguard.reservation.OrderOutcome;
import io.stockguard.reservation.Refusal;
import io.stockguard.reservation.ReservationOutcome;
import io.stockguard.reservation.ReservationProperties;
import io.stockguard.reservation.ReservationView;
import io.stockguard.reservation.ReserveCommand;
import io.stockguard.reservation.SkuStockView;
import io.stockguard.reservation.StockChangeOutcome;
import io.stockguard.reservation.StockCommand;
import io.stockguard.reservation.StockLedger;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The database ledger with hot-row coalescing: single-line reservations of SKUs that hash to the
 * same stripe are combined into one transaction (see {@link BatchReservations}); everything else
 * goes to the plain {@link JdbcStockLedger}. On a hot SKU this turns one commit per reservation
 * into one commit per batch, which is where a single hot row spends its time.
 */
final class CoalescingStockLedger implements StockLedger {

    private static final Logger log = LoggerFactory.getLogger(CoalescingStockLedger.class);

    private final JdbcStockLedger single;
    private final BatchReservations batches;
    private final ReservationProperties.Coalescing settings;
    private final List<Combiner<ReserveCommand, BatchReservations.Result>> stripes;
    private final DistributionSummary batchSizes;

    CoalescingStockLedger(JdbcStockLedger single, BatchReservations batches, ReservationProperties.Coalescing settings,
            MeterRegistry meters) {
        this.single = single;
        this.batches = batches;
        this.settings = settings;
        this.batchSizes = DistributionSummary.builder("stockguard.coalescing.batch.size")
                .description("Reservations served per coalesced transaction").register(meters);
        this.stripes = java.util.stream.IntStream.range(0, settings.stripes())
                .mapToObj(i -> new Combiner<ReserveCommand, BatchReservations.Result>(settings.batchSizeMax(),
                        this::serve))
                .toList();
    }

    @Override
    public ReservationOutcome reserve(ReserveCommand command) {
        if (command.lines().size() != 1) {
            return single.reserve(command);
        }
        SkuId sku = command.lines().getFirst().skuId();
        var stripe = stripes.get(Math.floorMod(sku.hashCode(), stripes.size()));
        BatchReservations.Result result = stripe.submit(command, settings.waitMax());
        return switch (result) {
            case null -> {
                log.warn("reservation of {} waited {} without being served; answered UNAVAILABLE", command.orderId(),
                        settings.waitMax());
                yield new Refusal.Unavailable(false, "the ledger is overloaded");
            }
            case BatchReservations.Decided decided -> decided.outcome();
            case BatchReservations.Alone alone -> single.reserve(command);
        };
    }

    private void serve(List<Combiner.Pending<ReserveCommand, BatchReservations.Result>> batch) {
        List<BatchReservations.Result> results;
        try {
            results = batches.reserve(batch.stream().map(pending -> pending.request).toList());
        } catch (RuntimeException e) {
            log.error("a coalesced batch of {} failed unexpectedly; serving its requests one by one", batch.size(), e);
            results = batch.stream().map(pending -> (BatchReservations.Result) BatchReservations.Alone.INSTANCE)
                    .toList();
        }
        batchSizes.record(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            batch.get(i).complete(results.get(i));
        }
    }

    @Override
    public OrderOutcome confirm(OrderId orderId, Caller caller) {
        return single.confirm(orderId, caller);
    }

    @Override
    public OrderOutcome cancel(OrderId orderId, Caller caller) {
        return single.cancel(orderId, caller);
    }

    @Override
    public OrderOutcome extend(HoldExtension extension) {
        return single.extend(extension);
    }

    @Override
    public boolean expire(OrderId orderId, Instant now) {
        return single.expire(orderId, now);
    }

    @Override
    public List<Due> dueForExpiry(Instant now, Due after, int limit) {
        return single.dueForExpiry(now, after, limit);
    }

    @Override
    public StockChangeOutcome apply(StockCommand command) {
        return single.apply(command);
    }

    @Override
    public Optional<SkuStockView> stock(SkuId skuId) {
        return single.stock(skuId);
    }

    @Override
    public Optional<ReservationView> reservation(OrderId orderId) {
        return single.reservation(orderId);
    }

    @Override
    public String path() {
        return single.path();
    }
}
