package io.stockguard.ledger;

import io.stockguard.journal.Journal;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockEvents;
import io.stockguard.platform.Caller;
import io.stockguard.reservation.HoldExtension;
import io.stockguard.reservation.OrderOutcome;
import io.stockguard.reservation.OwnershipStore;
import io.stockguard.reservation.Refusal;
import io.stockguard.reservation.ReservationOutcome;
import io.stockguard.reservation.ReservationState;
import io.stockguard.reservation.ReservationView;
import io.stockguard.reservation.ReserveCommand;
import io.stockguard.reservation.ReservedLine;
import io.stockguard.reservation.SkuStockView;
import io.stockguard.reservation.StockChangeOutcome;
import io.stockguard.reservation.StockCommand;
import io.stockguard.reservation.StockLedger;
import io.stockguard.stock.CustomerId;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.StockLine;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The database as the hot path (embedded and small tier): one transaction per operation holds
 * the conditional bucket updates, the reservation rows and the journal rows, so a reservation is
 * durable and journaled exactly when it is acknowledged.
 */
final class JdbcStockLedger implements StockLedger {

    private final TransactionTemplate transactions;
    private final SkuRows skus;
    private final BucketRows buckets;
    private final ReservationRows reservations;
    private final Journal journal;
    private final StockAdministration administration;
    private final Clock clock;
    /**
     * Set on the database path of the Redis tiers: every transaction checks, under a share lock,
     * that the database owns the SKUs it changes. Null on the embedded tier's ledger.
     */
    private final OwnershipStore owners;

    JdbcStockLedger(TransactionTemplate transactions, SkuRows skus, BucketRows buckets, ReservationRows reservations,
            Journal journal, StockAdministration administration, Clock clock) {
        this(transactions, skus, buckets, reservations, journal, administration, clock, null);
    }

    JdbcStockLedger(TransactionTemplate transactions, SkuRows skus, BucketRows buckets, ReservationRows reservations,
            Journal journal, StockAdministration administration, Clock clock, OwnershipStore owners) {
        this.owners = owners;
        this.transactions = transactions;
        this.skus = skus;
        this.buckets = buckets;
        this.reservations = reservations;
        this.journal = journal;
        this.administration = administration;
        this.clock = clock;
    }

    @Override
    public String path() {
        return "database";
    }

    /**
     * Tries the fast path first: one conditional UPDATE of each line's home bucket. When a home
     * bucket is short, the whole attempt is rolled back and repeated with every bucket of the
     * order's SKUs locked up front, in SKU and bucket order. Rolling back matters: under
     * contention PostgreSQL's failed conditional UPDATE keeps the row it waited for locked, and a
     * transaction that holds one bucket while locking the others can deadlock with another that
     * does the same. Starting over with no bucket held keeps the lock order total.
     */
    @Override
    public ReservationOutcome reserve(ReserveCommand command) {
        try {
            return attempt(command, false);
        } catch (HomeBucketShort e) {
            return attempt(command, true);
        }
    }

    private ReservationOutcome attempt(ReserveCommand command, boolean lockAllBuckets) {
        return transactions.execute(status -> {
            ReservationOutcome outcome = reserveInTransaction(command, lockAllBuckets);
            if (outcome instanceof Refusal) {
                status.setRollbackOnly();
            }
            return outcome;
        });
    }

    private ReservationOutcome reserveInTransaction(ReserveCommand command, boolean lockAllBuckets) {
        Instant now = clock.instant();
        ReservationRows.Header header = new ReservationRows.Header(command.orderId(),
                command.commit() ? ReservationState.CONFIRMED : ReservationState.RESERVED, command.fingerprint(), now,
                command.commit() ? null : now.plus(command.ttl()), command.commit() ? now : null, null,
                command.caller().traceId() == null ? null : command.caller().traceId().value(), 0,
                command.customerId());
        if (!reservations.insertIfAbsent(header)) {
            return replay(command);
        }
        claim(command.lines().stream().map(StockLine::skuId).toList());
        StockEvents.Context context = context(command.caller(), now);
        List<ReservedLine> held = new ArrayList<>();
        List<StockEvent> events = new ArrayList<>();
        for (StockLine line : command.linesInLockOrder()) {
            OptionalInt bucketCount = skus.bucketCount(line.skuId());
            if (bucketCount.isEmpty()) {
                return new Refusal.UnknownSku(line.skuId());
            }
            int home = command.orderId().homeBucket(bucketCount.getAsInt());
            if (command.customerId() != null) {
                Refusal overLimit = countForCustomer(command.customerId(), line);
                if (overLimit != null) {
                    return overLimit;
                }
            }
            List<StockEvent> lineEvents = new ArrayList<>();
            lineEvents.add(StockEvents.reserve(command.orderId(), line.skuId(), home, line.qty(), context)
                    .forCustomer(command.customerId()));
            if (command.commit()) {
                lineEvents.add(StockEvents.confirm(command.orderId(), line.skuId(), home, line.qty(), context));
            }
            Refusal refusal = lockAllBuckets ? takeWithAllLocked(line, home, lineEvents, events, context)
                    : takeFromHome(line, home, lineEvents, events);
            if (refusal != null) {
                return refusal;
            }
            held.add(new ReservedLine(line.skuId(), line.qty(), home));
        }
        reservations.insertLines(command.orderId(), held);
        journal.append(events);
        return new ReservationOutcome.Reserved(header.view(held), false);
    }

    /**
     * Counts the line against its customer's limit of the SKU, read in this transaction; returns
     * the refusal when it would pass it. Before the stock is touched: a customer at the limit
     * waits on nobody's bucket, and takes no stock that would have to be given back.
     */
    private Refusal countForCustomer(CustomerId customer, StockLine line) {
        int limit = skus.limitPerCustomer(line.skuId()).orElse(0);
        OptionalLong refusedAt = reservations.holds().take(line.skuId(), customer, line.qty(), limit);
        return refusedAt.isPresent()
                ? new Refusal.LimitExceeded(line.skuId(), customer, line.qty(), limit, refusedAt.getAsLong())
                : null;
    }

    /**
     * The fast path: the home bucket has the stock. When it has not, an unlocked read of the
     * SKU's buckets (the latest committed counters) decides: a SKU short as a whole, or frozen,
     * is refused right here; otherwise the attempt starts over with all buckets locked. Refusing
     * inside this transaction keeps the order's row locked until the answer is final, so a
     * concurrent retry of the same order waits for it rather than racing it.
     */
    private Refusal takeFromHome(StockLine line, int home, List<StockEvent> lineEvents,
            List<StockEvent> journalOut) {
        if (buckets.apply(line.skuId(), home, lineEvents, true)) {
            journalOut.addAll(lineEvents);
            return null;
        }
        List<BucketRows.Row> rows = buckets.read(line.skuId());
        if (rows.isEmpty()) {
            return new Refusal.UnknownSku(line.skuId());
        }
        if (!rows.getFirst().mode().sells()) {
            return new Refusal.SkuFrozen(line.skuId());
        }
        long available = rows.stream().mapToLong(BucketRows.Row::available).sum();
        if (available < line.qty()) {
            return new Refusal.InsufficientStock(line.skuId(), line.qty(), available);
        }
        throw new HomeBucketShort();
    }

    /**
     * The slow path, with every bucket of the SKU locked: if the SKU as a whole has the stock, it
     * is transferred into home first, so the last unit of a SKU is always sellable (I8) and the
     * line still lives in exactly one bucket. Returns null on success.
     */
    private Refusal takeWithAllLocked(StockLine line, int home, List<StockEvent> lineEvents,
            List<StockEvent> journalOut, StockEvents.Context context) {
        List<BucketRows.Row> rows = buckets.lock(line.skuId());
        if (rows.isEmpty()) {
            return new Refusal.UnknownSku(line.skuId());
        }
        BucketSet set = BucketSet.of(line.skuId(), rows);
        if (!set.sells()) {
            return new Refusal.SkuFrozen(line.skuId());
        }
        if (!set.take(home, lineEvents, context)) {
            return new Refusal.InsufficientStock(line.skuId(), line.qty(), set.available());
        }
        set.writeTo(buckets);
        journalOut.addAll(set.events());
        return null;
    }

    /** Thrown to roll back a fast-path attempt whose home bucket was short (or frozen). */
    private static final class HomeBucketShort extends RuntimeException {
        HomeBucketShort() {
            super(null, null, false, false);
        }
    }

    private ReservationOutcome replay(ReserveCommand command) {
        ReservationRows.Header existing = reservations.find(command.orderId()).orElseThrow(
                () -> new ConcurrencyFailureException("order " + command.orderId() + " vanished between insert and read"));
        return switch (existing.state()) {
            case CANCELLED, EXPIRED -> Refusal.movedOn(command.orderId(), existing.state());
            case RESERVED, CONFIRMED -> existing.fingerprint().equals(command.fingerprint())
                    ? new ReservationOutcome.Reserved(existing.view(reservations.lines(command.orderId())), true)
                    : new Refusal.IdempotencyConflict("order " + command.orderId());
        };
    }

    @Override
    public OrderOutcome confirm(OrderId orderId, Caller caller) {
        return transactions.execute(status -> {
            Instant now = clock.instant();
            Optional<ReservationRows.Header> found = reservations.lock(orderId);
            if (found.isEmpty()) {
                return new Refusal.UnknownOrder(orderId);
            }
            ReservationRows.Header header = found.get();
            return switch (header.state()) {
                case CONFIRMED -> new OrderOutcome.Updated(header.view(reservations.lines(orderId)), true);
                case CANCELLED, EXPIRED -> Refusal.movedOn(orderId, header.state());
                case RESERVED -> {
                    if (!header.expiresAt().isAfter(now)) {
                        expireLocked(header, now);
                        yield new Refusal.OrderExpired(orderId);
                    }
                    yield new OrderOutcome.Updated(move(header, ReservationState.CONFIRMED, caller, now), false);
                }
            };
        });
    }

    @Override
    public OrderOutcome cancel(OrderId orderId, Caller caller) {
        return transactions.execute(status -> {
            Instant now = clock.instant();
            Optional<ReservationRows.Header> found = reservations.lock(orderId);
            if (found.isEmpty()) {
                ReservationRows.Header tombstone = new ReservationRows.Header(orderId, ReservationState.CANCELLED,
                        ReservationRows.TOMBSTONE, now, null, null, now,
                        caller.traceId() == null ? null : caller.traceId().value());
                if (reservations.insertIfAbsent(tombstone)) {
                    return new OrderOutcome.Updated(tombstone.view(List.of()), false);
                }
                found = reservations.lock(orderId);
            }
            ReservationRows.Header header = found.orElseThrow();
            return switch (header.state()) {
                case CANCELLED, EXPIRED -> new OrderOutcome.Updated(header.view(reservations.lines(orderId)), true);
                case RESERVED, CONFIRMED ->
                        new OrderOutcome.Updated(move(header, ReservationState.CANCELLED, caller, now), false);
            };
        });
    }

    @Override
    public OrderOutcome extend(HoldExtension extension) {
        return transactions.execute(status -> {
            Instant now = clock.instant();
            OrderId orderId = extension.orderId();
            Optional<ReservationRows.Header> found = reservations.lock(orderId);
            if (found.isEmpty()) {
                return new Refusal.UnknownOrder(orderId);
            }
            ReservationRows.Header header = found.get();
            return switch (header.state()) {
                case CONFIRMED, CANCELLED, EXPIRED -> Refusal.movedOn(orderId, header.state());
                case RESERVED -> {
                    if (!header.expiresAt().isAfter(now)) {
                        expireLocked(header, now);
                        yield new Refusal.OrderExpired(orderId);
                    }
                    Instant wanted = header.createdAt().plus(extension.hold());
                    List<ReservedLine> lines = reservations.lines(orderId);
                    if (!wanted.isAfter(header.expiresAt())) {
                        yield new OrderOutcome.Updated(header.view(lines), true);
                    }
                    if (header.extensions() >= HoldExtension.PER_ORDER_MAX) {
                        yield new Refusal.ExtensionLimit(orderId, header.expiresAt(), header.extensions(), false);
                    }
                    claim(lines.stream().map(ReservedLine::skuId).toList());
                    ReservationRows.Header extended = HoldRecord.extend(header, wanted, header.extensions() + 1,
                            lines, reservations, journal, context(extension.caller(), now));
                    yield new OrderOutcome.Updated(extended.view(lines), false);
                }
            };
        });
    }

    @Override
    public boolean expire(OrderId orderId, Instant now) {
        return Boolean.TRUE.equals(transactions.execute(status -> reservations.lock(orderId)
                .filter(header -> header.state() == ReservationState.RESERVED && !header.expiresAt().isAfter(now))
                .map(header -> {
                    expireLocked(header, now);
                    return true;
                })
                .orElse(false)));
    }

    private void expireLocked(ReservationRows.Header header, Instant now) {
        move(header, ReservationState.EXPIRED, null, now);
    }

    /**
     * Moves a locked reservation to its next state and each line's stock with it: reserved to sold
     * on confirm; reserved or sold back to available on cancel and expiry.
     */
    private ReservationView move(ReservationRows.Header header, ReservationState to, Caller caller, Instant now) {
        StockEvents.Context context = caller == null ? new StockEvents.Context(null, "stockguard:expiry", now)
                : context(caller, now);
        List<ReservedLine> lines = reservations.lines(header.orderId());
        claim(lines.stream().map(ReservedLine::skuId).toList());
        List<StockEvent> events = new ArrayList<>(lines.size());
        for (ReservedLine line : lines) {
            StockEvent event = eventFor(header, to, line, context);
            buckets.applyOrFail(line.skuId(), line.bucket(), List.of(event));
            events.add(event);
            if (header.customerId() != null && to != ReservationState.CONFIRMED) {
                // A sale still counts against the limit; a cancel or an expiry gives the units back.
                reservations.holds().move(line.skuId(), header.customerId(), -line.qty());
            }
        }
        Instant confirmedAt = to == ReservationState.CONFIRMED ? now : null;
        Instant closedAt = to == ReservationState.CONFIRMED ? null : now;
        if (!reservations.transition(header.orderId(), header.state(), to, confirmedAt, closedAt)) {
            throw new LedgerInvariantViolation("order " + header.orderId() + " left state " + header.state()
                    + " while locked");
        }
        journal.append(events);
        return header.moved(to, confirmedAt == null ? header.confirmedAt() : confirmedAt, closedAt).view(lines);
    }

    private static StockEvent eventFor(ReservationRows.Header header, ReservationState to, ReservedLine line,
            StockEvents.Context context) {
        OrderId order = header.orderId();
        return switch (to) {
            case CONFIRMED -> StockEvents.confirm(order, line.skuId(), line.bucket(), line.qty(), context);
            case EXPIRED -> StockEvents.expire(order, line.skuId(), line.bucket(), line.qty(), context);
            case CANCELLED -> header.state() == ReservationState.CONFIRMED
                    ? StockEvents.cancelConfirmed(order, line.skuId(), line.bucket(), line.qty(), context)
                    : StockEvents.cancelReserved(order, line.skuId(), line.bucket(), line.qty(), context);
            case RESERVED -> throw new IllegalArgumentException("no transition leads back to RESERVED");
        };
    }

    @Override
    public List<Due> dueForExpiry(Instant now, Due after, int limit) {
        return reservations.due(now, after, limit);
    }

    @Override
    public StockChangeOutcome apply(StockCommand command) {
        // A stock change locks the SKU's row for update next: its ownership is held so from the start.
        return administration.apply(command, skus -> claim(skus, OwnershipStore.RowHold.FOR_UPDATE));
    }

    @Override
    public Optional<SkuStockView> stock(SkuId skuId) {
        return administration.view(skuId);
    }

    @Override
    public Optional<ReservationView> reservation(OrderId orderId) {
        return reservations.find(orderId).map(header -> header.view(reservations.lines(orderId)));
    }

    private void claim(List<SkuId> skus) {
        claim(skus, OwnershipStore.RowHold.SHARED);
    }

    private void claim(List<SkuId> skus, OwnershipStore.RowHold hold) {
        if (owners != null) {
            owners.requireDatabaseOwner(skus, hold);
        }
    }

    static StockEvents.Context context(Caller caller, Instant now) {
        return new StockEvents.Context(caller.traceId(), caller.actor().toString(), now);
    }
}
