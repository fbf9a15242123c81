package io.stockguard.bench.stockguard;

import io.stockguard.platform.Caller;
import io.stockguard.reservation.BucketView;
import io.stockguard.reservation.HoldExtension;
import io.stockguard.reservation.OrderOutcome;
import io.stockguard.reservation.Refusal;
import io.stockguard.reservation.ReservationOutcome;
import io.stockguard.reservation.ReservationState;
import io.stockguard.reservation.ReservationView;
import io.stockguard.reservation.ReserveCommand;
import io.stockguard.reservation.ReservedLine;
import io.stockguard.reservation.SkuStockView;
import io.stockguard.reservation.SkuTerms;
import io.stockguard.reservation.StockChangeOutcome;
import io.stockguard.reservation.StockCommand;
import io.stockguard.reservation.StockLedger;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.SkuMode;
import io.stockguard.stock.StockLine;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The HTTP ceiling's ledger: each SKU's stock is a counter in this JVM, a reservation one
 * compare-and-set per line. No store, no journal, no durability, no idempotency (a repeated order
 * id is reserved again): what is left of a reservation when the store costs nothing, so the service's
 * own stack (authentication, JSON in and out, validation, observation) is all that is measured.
 * Orders are not kept: confirm, cancel and extend refuse with "unknown order". Never a tier.
 */
public final class MemoryLedger implements StockLedger {

    private final Map<SkuId, Stock> skus = new ConcurrentHashMap<>();

    /** Sets a SKU's stock, as a run's catalogue loads it: {@code units} available, none held. */
    public void stock(SkuId sku, long units) {
        skus.put(sku, new Stock(units));
    }

    /** Units of the SKU not held, 0 for one never stocked. */
    public long available(SkuId sku) {
        Stock stock = skus.get(sku);
        return stock == null ? 0 : stock.available.get();
    }

    @Override
    public ReservationOutcome reserve(ReserveCommand command) {
        List<StockLine> taken = new ArrayList<>();
        for (StockLine line : command.linesInLockOrder()) {
            Stock stock = skus.get(line.skuId());
            if (stock == null) {
                giveBack(taken);
                return new Refusal.UnknownSku(line.skuId());
            }
            long left = stock.take(line.qty());
            if (left < 0) {
                giveBack(taken);
                return new Refusal.InsufficientStock(line.skuId(), line.qty(), -left - 1);
            }
            taken.add(line);
        }
        Instant now = Instant.now();
        List<ReservedLine> lines = command.lines().stream().map(l -> new ReservedLine(l.skuId(), l.qty(), 0)).toList();
        ReservationView view = new ReservationView(command.orderId(),
                command.commit() ? ReservationState.CONFIRMED : ReservationState.RESERVED, lines, now,
                command.commit() ? null : now.plus(command.ttl()), command.commit() ? now : null, null, null, 0,
                command.customerId());
        return new ReservationOutcome.Reserved(view, false);
    }

    private void giveBack(List<StockLine> taken) {
        for (StockLine line : taken) {
            skus.get(line.skuId()).giveBack(line.qty());
        }
    }

    @Override
    public OrderOutcome confirm(OrderId orderId, Caller caller) {
        return new Refusal.UnknownOrder(orderId);
    }

    @Override
    public OrderOutcome cancel(OrderId orderId, Caller caller) {
        return new Refusal.UnknownOrder(orderId);
    }

    @Override
    public OrderOutcome extend(HoldExtension extension) {
        return new Refusal.UnknownOrder(extension.orderId());
    }

    @Override
    public boolean expire(OrderId orderId, Instant now) {
        return false;
    }

    @Override
    public List<Due> dueForExpiry(Instant now, Due after, int limit) {
        return List.of();
    }

    @Override
    public StockChangeOutcome apply(StockCommand command) {
        SkuStockView before = stock(command.skuId()).orElse(null);
        switch (command) {
            case StockCommand.Upsert upsert -> {
                if (before == null) {
                    stock(upsert.skuId(), upsert.total());
                } else {
                    // Held units are never touched, so the total cannot go below them.
                    skus.get(upsert.skuId()).add(Math.max(upsert.total() - before.total(), -before.available()));
                }
            }
            case StockCommand.Restock restock -> {
                if (before == null) {
                    return new Refusal.UnknownSku(restock.skuId());
                }
                skus.get(restock.skuId()).add(restock.qty());
            }
            case StockCommand.Adjust adjust -> {
                if (before == null) {
                    return new Refusal.UnknownSku(adjust.skuId());
                }
                // Held units are never touched, so the total cannot go below them.
                long delta = adjust.set() != null ? adjust.set() - before.total() : adjust.delta();
                skus.get(adjust.skuId()).add(Math.max(delta, -before.available()));
            }
        }
        return new StockChangeOutcome.Changed(before, stock(command.skuId()).orElseThrow(), false);
    }

    @Override
    public Optional<SkuStockView> stock(SkuId skuId) {
        Stock stock = skus.get(skuId);
        if (stock == null) {
            return Optional.empty();
        }
        long available = stock.available.get();
        return Optional.of(SkuStockView.of(skuId, SkuMode.NORMAL, null, null, null, 0,
                List.of(new BucketView(0, available, Math.max(0, stock.total.get() - available), 0)), SkuTerms.NONE));
    }

    @Override
    public Optional<ReservationView> reservation(OrderId orderId) {
        return Optional.empty();
    }

    @Override
    public String path() {
        return "memory";
    }

    /** One SKU's counter. */
    private static final class Stock {

        private final AtomicLong total;
        private final AtomicLong available;

        Stock(long total) {
            this.total = new AtomicLong(total);
            this.available = new AtomicLong(total);
        }

        /** Takes {@code qty}: what is left after, or, when there was not enough, -(available + 1). */
        long take(int qty) {
            while (true) {
                long now = available.get();
                if (now < qty) {
                    return -now - 1;
                }
                if (available.compareAndSet(now, now - qty)) {
                    return now - qty;
                }
            }
        }

        void giveBack(long qty) {
            available.addAndGet(qty);
        }

        /** Changes the total, and what is available with it, by {@code delta}. */
        void add(long delta) {
            total.addAndGet(delta);
            available.addAndGet(delta);
        }
    }
}
