package io.stockguard.bench.stockguard;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.platform.Caller;
import io.stockguard.reservation.ReservationOutcome;
import io.stockguard.reservation.ReservationState;
import io.stockguard.reservation.Refusal;
import io.stockguard.reservation.ReserveCommand;
import io.stockguard.reservation.StockChangeOutcome;
import io.stockguard.reservation.StockCommand;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.StockLine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The ceiling's ledger keeps no store, but it still never sells what it does not have. */
class MemoryLedgerTest {

    private static final SkuId HOT = new SkuId("HOT");
    private static final SkuId COLD = new SkuId("COLD");

    private final MemoryLedger ledger = new MemoryLedger();

    private static ReserveCommand order(String id, StockLine... lines) {
        return new ReserveCommand(new OrderId(id), List.of(lines), Duration.ofMinutes(15), false, Caller.SYSTEM);
    }

    @Test
    void anOrderTakesEveryLineOrNone() {
        ledger.stock(HOT, 5);
        ledger.stock(COLD, 1);

        ReservationOutcome held = ledger.reserve(order("o-1", new StockLine(HOT, 2), new StockLine(COLD, 1)));
        assertThat(held).isInstanceOfSatisfying(ReservationOutcome.Reserved.class, reserved -> {
            assertThat(reserved.reservation().state()).isEqualTo(ReservationState.RESERVED);
            assertThat(reserved.reservation().lines()).hasSize(2);
        });
        // COLD is gone: the second order takes nothing from HOT either.
        assertThat(ledger.reserve(order("o-2", new StockLine(HOT, 1), new StockLine(COLD, 1))))
                .isEqualTo(new Refusal.InsufficientStock(COLD, 1, 0));
        assertThat(ledger.available(HOT)).isEqualTo(3);
        assertThat(ledger.stock(HOT).orElseThrow().reserved()).isEqualTo(2);
        assertThat(ledger.reserve(order("o-3", new StockLine(new SkuId("NONE"), 1))))
                .isEqualTo(new Refusal.UnknownSku(new SkuId("NONE")));
    }

    @Test
    void concurrentBuyersNeverTakeMoreThanThereIs() throws Exception {
        ledger.stock(HOT, 1_000);
        AtomicInteger sold = new AtomicInteger();
        List<Thread> buyers = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            int buyer = t;
            buyers.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 500; i++) {
                    if (ledger.reserve(order(buyer + "-" + i, new StockLine(HOT, 1)))
                            instanceof ReservationOutcome.Reserved) {
                        sold.incrementAndGet();
                    }
                }
            }));
        }
        for (Thread buyer : buyers) {
            buyer.join();
        }
        assertThat(sold).hasValue(1_000);
        assertThat(ledger.available(HOT)).isZero();
    }

    @Test
    void stockCommandsMoveTheTotalButNeverBelowWhatIsHeld() {
        assertThat(ledger.apply(new StockCommand.Upsert(HOT, 10, null, null, Caller.SYSTEM)))
                .isInstanceOf(StockChangeOutcome.Changed.class);
        ledger.reserve(order("o-1", new StockLine(HOT, 4)));
        ledger.apply(new StockCommand.Restock(HOT, 5, null, Caller.SYSTEM));
        assertThat(ledger.stock(HOT).orElseThrow().total()).isEqualTo(15);
        assertThat(ledger.available(HOT)).isEqualTo(11);
        ledger.apply(new StockCommand.Adjust(HOT, 0L, null, "count", null, Caller.SYSTEM));
        assertThat(ledger.stock(HOT).orElseThrow().total()).isEqualTo(4);
        assertThat(ledger.available(HOT)).isZero();
        assertThat(ledger.apply(new StockCommand.Restock(COLD, 1, null, Caller.SYSTEM)))
                .isEqualTo(new Refusal.UnknownSku(COLD));
    }
}
