package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.reservation.Ownership;
import io.stockguard.reservation.OwnershipStore;
import io.stockguard.stock.SkuId;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Which SKUs the view hands the hand-over worker as draining: exactly those whose newest known
 * change says DRAINING, whether it was followed or read on demand, and none once a newer change
 * moved them on. The store is a list of numbered changes in memory: what is under test is the
 * view's bookkeeping, not the database.
 */
class OwnershipViewTest {

    private static final Instant NOW = Instant.parse("2026-12-06T12:00:00Z");

    private final ChangeLog log = new ChangeLog();
    private final OwnershipView view = OwnershipView.onItsOwnThread(log);

    @Test
    void aSkuTakenOverIsDrainingUntilItsDrainIsFinished() {
        SkuId sku = SkuId.of("drains");
        SkuId other = SkuId.of("stays-hot");
        log.change(sku, new Ownership.Hot(1));
        log.change(other, new Ownership.Hot(1));
        assertThat(view.get(sku)).contains(new Ownership.Hot(1));
        view.refresh();
        assertThat(view.draining(10)).isEmpty();

        log.change(sku, new Ownership.Draining(1, NOW));
        view.refresh();
        assertThat(view.draining(10)).containsExactly(sku);

        log.change(sku, new Ownership.Database(1, NOW));
        view.refresh();
        assertThat(view.draining(10)).isEmpty();
    }

    @Test
    void anOlderReadingDoesNotPutADrainedSkuBack() {
        SkuId sku = SkuId.of("read-late");
        log.change(sku, new Ownership.Hot(1));
        view.get(sku);
        log.change(sku, new Ownership.Draining(1, NOW));
        OwnershipStore.Change drainingRead = log.current(sku).orElseThrow();
        log.change(sku, new Ownership.Database(1, NOW));
        view.refresh();
        assertThat(view.draining(10)).isEmpty();

        // A reread that began before the drain finished, answered after the view followed it.
        log.answerNext(sku, drainingRead);
        view.reread(sku);

        assertThat(view.draining(10)).isEmpty();
        assertThat(view.get(sku)).contains(new Ownership.Database(1, NOW));
    }

    @Test
    void aSkuReadOnDemandWhileDrainingIsFound() {
        SkuId sku = SkuId.of("read-draining");
        log.change(sku, new Ownership.Draining(3, NOW));

        assertThat(view.get(sku)).contains(new Ownership.Draining(3, NOW));

        assertThat(view.draining(10)).containsExactly(sku);
    }

    @Test
    void theWorkerIsGivenAtMostItsLimit() {
        for (int i = 0; i < 5; i++) {
            SkuId sku = SkuId.of("many-" + i);
            log.change(sku, new Ownership.Hot(1));
            view.get(sku);
            log.change(sku, new Ownership.Draining(1, NOW));
        }
        view.refresh();

        assertThat(view.draining(3)).hasSize(3);
        assertThat(view.draining(10)).hasSize(5);
    }

    /** Numbered ownership changes in memory, as the database keeps them. */
    private static final class ChangeLog implements OwnershipStore {

        private final List<Change> changes = new ArrayList<>();
        private final Map<SkuId, Change> next = new HashMap<>();

        void change(SkuId sku, Ownership ownership) {
            changes.add(new Change(sku, ownership, new Position(changes.size(), sku.value())));
        }

        /** The next {@link #current} of the SKU answers this (a read that was slow to come back). */
        void answerNext(SkuId sku, Change answer) {
            next.put(sku, answer);
        }

        @Override
        public Optional<Change> current(SkuId sku) {
            Change answer = next.remove(sku);
            if (answer != null) {
                return Optional.of(answer);
            }
            return changes.reversed().stream().filter(c -> c.skuId().equals(sku)).findFirst();
        }

        @Override
        public List<Change> changesSince(Position after, int limit) {
            return changes.stream().filter(c -> c.position().seq() > after.seq()).limit(limit).toList();
        }

        @Override
        public Position position() {
            return changes.isEmpty() ? Position.START : changes.getLast().position();
        }

        @Override
        public List<Loaded> load(Collection<SkuId> skus, Instant now, Duration reloadAfter,
                Function<List<HotSource>, Set<SkuId>> intoHotStore) {
            throw new UnsupportedOperationException("the view only reads");
        }

        @Override
        public Ownership.Step takeOver(SkuId sku, long epoch, Instant now) {
            throw new UnsupportedOperationException("the view only reads");
        }

        @Override
        public Ownership.Step finishDrain(SkuId sku, Instant now, Duration handOverDelay,
                BooleanSupplier journalApplied) {
            throw new UnsupportedOperationException("the view only reads");
        }

        @Override
        public void requireDatabaseOwner(Collection<SkuId> skus, RowHold hold) {
            throw new UnsupportedOperationException("the view only reads");
        }
    }
}
