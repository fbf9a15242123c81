package io.stockguard.hotstore;

import io.stockguard.audit.AuditLog;
import io.stockguard.journal.DurableJournal;
import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockOp;
import io.stockguard.reservation.HotStoreSource;
import io.stockguard.reservation.Refusal;
import io.stockguard.reservation.SkuStockView;
import io.stockguard.reservation.StockChangeOutcome;
import io.stockguard.reservation.StockCommand;
import io.stockguard.stock.SkuId;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Restocks, adjustments and a catalogue's new total for a SKU the hot store owns: made in the hot
 * store first (stock.lua, as its owner) and journaled like any reservation, so the database never
 * changes the SKU behind the hot store's back. A removal larger than what is available is refused
 * with the figures: stock already reserved or sold is never taken back by an adjustment.
 */
final class HotStockChanges {

    private static final Logger log = LoggerFactory.getLogger(HotStockChanges.class);

    private final HotLines lines;
    private final DurableJournal journal;
    private final HotStoreSource database;
    private final RedisGateway redis;
    private final AuditLog audit;
    private final TransactionTemplate transactions;
    private final ReplicaAcknowledgement replicas;

    HotStockChanges(HotLines lines, DurableJournal journal, HotStoreSource database, RedisGateway redis,
            AuditLog audit, TransactionTemplate transactions, ReplicaAcknowledgement replicas) {
        this.replicas = replicas;
        this.lines = lines;
        this.journal = journal;
        this.database = database;
        this.redis = redis;
        this.audit = audit;
        this.transactions = transactions;
    }

    /**
     * Applies the change at the epoch that owns the SKU.
     *
     * @param view reads the SKU's stock as it stands (the hot store's live counters)
     * @throws StaleOwner when the hot store is not at that epoch
     */
    StockChangeOutcome apply(StockCommand command, long epoch, Instant now, Function<SkuId, SkuStockView> view) {
        SkuId sku = command.skuId();
        OptionalInt buckets = database.bucketCount(sku);
        if (buckets.isEmpty()) {
            return new Refusal.UnknownSku(sku);
        }
        Change change = change(command);
        SkuStockView before = view.apply(sku);
        if (change.requestId() != null) {
            // The database has every request the hot store ever journaled, also those an older
            // epoch (or a hot store that lost them) made: a retry of one of them is a replay.
            var known = database.stockRequestFingerprint(change.requestId());
            if (known.isPresent()) {
                return known.get().equals(change.fingerprint()) ? new StockChangeOutcome.Changed(before, before, true)
                        : new Refusal.IdempotencyConflict("request " + change.requestId());
            }
        }
        HotLines.Change made;
        switch (lines.stock(sku, change.op(), change.set(), change.amount(), change.requestId(),
                change.fingerprint(), now, command.caller(), epoch, buckets.getAsInt())) {
            case StockReply.Made fresh -> made = fresh.change();
            case StockReply.Replayed replayed -> {
                // An earlier attempt made it; what of it still waits in the outbox is journaled first.
                HotLines.Change pending = lines.pending(sku, -1, replayed.entries());
                if (!pending.events().isEmpty()) {
                    journal(sku, epoch, pending);
                }
                return new StockChangeOutcome.Changed(before, before, true);
            }
            case StockReply.Conflict conflict -> {
                return new Refusal.IdempotencyConflict("request " + change.requestId());
            }
            case StockReply.Short shortOf -> {
                return new Refusal.InsufficientStock(sku, change.set() ? before.total() - change.amount()
                        : -change.amount(), shortOf.available());
            }
            case StockReply.Backlog backlog -> {
                return new Refusal.Unavailable(false, "the journal of SKU " + sku + " is " + backlog.length()
                        + " changes behind");
            }
            case StockReply.NotSold notSold -> throw notSold.why().takeOver(sku, epoch);
        }
        journal(sku, epoch, made);
        SkuStockView after = view.apply(sku);
        record(command, change, before, after);
        return new StockChangeOutcome.Changed(before, after, false);
    }

    private void journal(SkuId sku, long epoch, HotLines.Change made) {
        // Short of replicas, the change still stands (see ReplicaAcknowledgement).
        replicas.replicated();
        List<HotLines.Change> earlier = EarlierGives.before(redis, List.of(made));
        List<EventOutcome> outcomes;
        try {
            outcomes = Earlier.record(journal, earlier, made.events());
        } catch (DurableJournal.JournalUnavailableException e) {
            // The change stays in the outbox: the sweeper journals it, so it is not undone here.
            throw new RedisGateway.HotStoreUnavailable("the journal did not take the stock change of " + sku, e);
        }
        if (outcomes.stream().anyMatch(EventOutcome.Rejected.class::isInstance)) {
            throw new StaleOwner(sku, epoch, "the database refused its stock change: " + outcomes);
        }
        earlier.forEach(change -> redis.forgetJournaled(Keys.outbox(change.skuId()), change.entryIds()));
        redis.deleteFromOutbox(Keys.outbox(sku), made.entryIds());
    }

    /** The audit row, as the database path writes it: who, why, before and after. */
    private void record(StockCommand command, Change change, SkuStockView before, SkuStockView after) {
        try {
            transactions.executeWithoutResult(status -> audit.record(command.caller().actor(), change.action(),
                    "sku:" + command.skuId().value(), change.reason(), summary(before), summary(after),
                    command.caller().traceId()));
        } catch (RuntimeException e) {
            // The change is journaled and stands; the audit row is the one thing missing.
            log.error("{} of SKU {} by {} is made but its audit row could not be written", change.action(),
                    command.skuId(), command.caller().actor(), e);
        }
    }

    private static Map<String, Object> summary(SkuStockView view) {
        return Map.of("total", view.total(), "available", view.available(), "reserved", view.reserved(), "sold",
                view.sold(), "safetyStock", view.safetyStock());
    }

    /** What the command asks of stock.lua. */
    private record Change(StockOp op, boolean set, long amount, String requestId, String fingerprint, String action,
            String reason) {
    }

    private static Change change(StockCommand command) {
        return switch (command) {
            case StockCommand.Restock restock -> new Change(StockOp.RESTOCK, false, restock.qty(), restock.requestId(),
                    restock.fingerprint(), "RESTOCK", "goods received");
            case StockCommand.Adjust adjust -> new Change(StockOp.ADJUST, adjust.set() != null,
                    adjust.set() != null ? adjust.set() : adjust.delta(), adjust.requestId(), adjust.fingerprint(),
                    "ADJUST", adjust.reason().strip());
            case StockCommand.Upsert upsert -> new Change(StockOp.ADJUST, true, upsert.total(), null, "", "SKU_SET",
                    "set by the catalogue");
        };
    }
}
