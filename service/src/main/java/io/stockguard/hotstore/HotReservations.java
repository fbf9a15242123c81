package io.stockguard.hotstore;

import io.stockguard.journal.DurableJournal;
import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.JournalProgress;
import io.stockguard.journal.StockEvent;
import io.stockguard.reservation.HotStoreSource;
import io.stockguard.reservation.Refusal;
import io.stockguard.reservation.ReservationOutcome;
import io.stockguard.reservation.ReservationState;
import io.stockguard.reservation.ReservationView;
import io.stockguard.reservation.ReserveCommand;
import io.stockguard.reservation.ReservedLine;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.StockLine;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A reservation on the hot store, as a saga over the order's SKUs: open the order record (the
 * idempotency gate), reserve each line on its SKU (atomic per SKU, at the epoch the caller knows
 * owns it), make every change durable in the journal, then close the order. A line that fails
 * undoes the lines before it as if they never happened; a caller that dies half-way leaves an
 * OPENING order that a retry takes over once it is stale.
 *
 * <p>Records the hot store holds from another epoch (or none at all) are never trusted: the
 * database, which has everything an older epoch acknowledged, says what became of them.
 */
final class HotReservations {

    private static final Logger log = LoggerFactory.getLogger(HotReservations.class);
    /** A line whose record the database rewrote is tried again at most this often. */
    private static final int LINE_ATTEMPTS_MAX = 3;
    /**
     * How long a retry whose order must be restored from the database waits for the journal to give
     * the database the order's changes; the applier's lag is milliseconds when healthy.
     */
    private static final Duration DATABASE_COPY_WAIT = Duration.ofSeconds(2);

    private final HotOrders orders;
    private final HotLines lines;
    private final HotStockLoader loader;
    private final DurableJournal journal;
    private final JournalProgress progress;
    private final HotStoreSource database;
    private final RedisGateway redis;
    private final RedisProperties properties;
    private final ReplicaAcknowledgement replicas;
    private final PendingGiveUps giveUps;
    private final AbandonedReservations abandoned;
    private final InstancePresence presence;
    private final OpeningGate gate;
    private final OneLineTrips oneLine;

    HotReservations(HotOrders orders, HotLines lines, HotStockLoader loader, DurableJournal journal,
            HotStoreSource database, RedisGateway redis, RedisProperties properties, ReplicaAcknowledgement replicas,
            PendingGiveUps giveUps, InstancePresence presence, JournalProgress progress) {
        this.giveUps = giveUps;
        this.progress = progress;
        this.presence = presence;
        this.gate = new OpeningGate(orders, presence);
        this.oneLine = new OneLineTrips(redis, orders, lines);
        this.abandoned = new AbandonedReservations(orders, lines, loader, journal, redis, properties);
        this.replicas = replicas;
        this.orders = orders;
        this.lines = lines;
        this.loader = loader;
        this.journal = journal;
        this.database = database;
        this.redis = redis;
        this.properties = properties;
    }

    /**
     * Reserves every line or none.
     *
     * @param epochs the epoch of the hot store that owns each of the order's SKUs
     * @throws StaleOwner when a SKU's hot store is not at that epoch (or lost it): nothing was reserved
     */
    ReservationOutcome reserve(ReserveCommand command, Instant now, Map<SkuId, Long> epochs) {
        long started = System.nanoTime();
        OrderId order = command.orderId();
        Instant holdEnds = command.commit() ? null : now.plus(command.ttl());
        String trace = command.caller().traceId() == null ? null : command.caller().traceId().value();
        Attempt attempt = presence.nextAttempt();
        OneLineTrips.Opening opening = oneLine.apply(command) ? openAndReserve(command, now, holdEnds, trace, attempt,
                epochs) : null;
        OpenReply opened = opening == null ? open(command, now, holdEnds, trace, attempt)
                : gate.through(command, now, holdEnds, trace, attempt, opening.opened());
        // The line's reserve, made in the trip that opened the record (none if it did not open it).
        ReserveReply first = opening != null && opening.reserved() != null ? opening.reserved() : null;
        if (opened instanceof OpenReply.Foreign || opened instanceof OpenReply.Done done && !current(done, epochs)) {
            // The record was made under another epoch, or another Redis history: the database's copy
            // replaces it.
            loader.rewriteOrder(order, sku -> epochs.getOrDefault(sku, 0L));
            opened = open(command, now, holdEnds, trace, attempt);
            first = null;
        }
        switch (opened) {
            case OpenReply.Cancelled cancelled -> { return new Refusal.OrderCancelled(order); }
            case OpenReply.Expired expired -> { return new Refusal.OrderExpired(order); }
            case OpenReply.Conflict conflict -> { return new Refusal.IdempotencyConflict("order " + order); }
            case OpenReply.Busy busy -> {
                return new Refusal.Unavailable(true, "another request for this order is in progress");
            }
            case OpenReply.Done done -> { return replay(command, done); }
            case OpenReply.Foreign foreign -> throw new IllegalStateException("order.lua OPEN answered FOREIGN for "
                    + "order " + order + " after its record was rewritten");
            case OpenReply.Opened fresh -> { }
        }
        ReservationOutcome outcome;
        try {
            outcome = reserveOpened(command, now, holdEnds, epochs, started, attempt, first);
        } catch (KnownToTheDatabase known) {
            return answerFromDatabase(command, now, holdEnds, trace, epochs, attempt);
        } catch (RuntimeException e) {
            giveUp(command, now, attempt);
            throw e;
        }
        if (outcome instanceof Refusal.Unavailable unavailable && unavailable.outcomeUnknown()) {
            giveUp(command, now, attempt);
        }
        return outcome;
    }

    /**
     * This request will not finish the order it opened: its retry resumes it at once (every line step
     * is idempotent) instead of hearing "in progress" until the record goes stale. Best effort: a
     * Redis that cannot take this leaves the record to go stale.
     */
    private void giveUp(ReserveCommand command, Instant now, Attempt attempt) {
        try {
            orders.giveUp(command.orderId(), command.fingerprint(), now, attempt);
        } catch (RedisGateway.HotStoreUnavailable e) {
            log.debug("order {}: its give-up waits for Redis: {}", command.orderId(), e.getMessage());
            giveUps.add(command.orderId(), command.fingerprint(), attempt);
        }
    }

    /**
     * One-line orders open the record and reserve in one trip where Redis allows it
     * ({@link OneLineTrips}); null when the order's SKU is unknown (the usual steps refuse it).
     */
    private OneLineTrips.Opening openAndReserve(ReserveCommand command, Instant now, Instant holdEnds, String trace,
            Attempt attempt, Map<SkuId, Long> epochs) {
        SkuId sku = command.lines().getFirst().skuId();
        OptionalInt bucketCount = database.bucketCount(sku);
        if (bucketCount.isEmpty()) {
            return null;
        }
        return oneLine.openAndReserve(command, now, holdEnds, trace, attempt, epochs.get(sku),
                command.orderId().homeBucket(bucketCount.getAsInt()), bucketCount.getAsInt());
    }

    /** @param first the reply of the one line's reserve, made in the trip that opened the record; else null */
    private ReservationOutcome reserveOpened(ReserveCommand command, Instant now, Instant holdEnds,
            Map<SkuId, Long> epochs, long started, Attempt attempt, ReserveReply first) {
        OrderId order = command.orderId();
        List<HotLines.Change> held = new ArrayList<>();
        Set<SkuId> resumed = new HashSet<>();
        boolean[] databaseAsked = {false};
        for (StockLine line : command.linesInLockOrder()) {
            Refusal refusal;
            try {
                refusal = reserveLine(command, line, now, holdEnds, epochs.get(line.skuId()), held, resumed,
                        databaseAsked, first);
            } catch (StaleOwner | KnownToTheDatabase e) {
                abandoned.abandon(order, held, command.caller(), now, epochs, started, resumed, attempt);
                throw e;
            }
            if (refusal != null) {
                return abandoned.abandon(order, held, command.caller(), now, epochs, started, resumed, attempt) ? refusal
                        : new Refusal.Unavailable(true, "the reservation took too long to be undone safely");
            }
        }
        return journalAndClose(command, held, resumed, now, holdEnds, epochs, started, attempt);
    }

    private OpenReply open(ReserveCommand command, Instant now, Instant holdEnds, String trace, Attempt attempt) {
        return gate.open(command, now, holdEnds, trace, attempt);
    }

    /** Whether a replayed record's lines were all recorded under the epochs that own their SKUs now. */
    private static boolean current(OpenReply.Done done, Map<SkuId, Long> epochs) {
        Map<SkuId, Long> recorded = RecordedLines.epochs(done.recorded());
        return recorded.entrySet().stream().allMatch(e -> e.getValue().equals(epochs.get(e.getKey())));
    }

    /** Reserves one line; returns null on success (recording the change) or the refusal. */
    private Refusal reserveLine(ReserveCommand command, StockLine line, Instant now, Instant holdEnds, long epoch,
            List<HotLines.Change> held, Set<SkuId> resumed, boolean[] databaseAsked, ReserveReply first) {
        OptionalInt bucketCount = database.bucketCount(line.skuId());
        if (bucketCount.isEmpty()) {
            return new Refusal.UnknownSku(line.skuId());
        }
        int home = command.orderId().homeBucket(bucketCount.getAsInt());
        for (int attempt = 0; attempt < LINE_ATTEMPTS_MAX; attempt++) {
            ReserveReply reply = attempt == 0 && first != null ? first : lines.reserve(command.orderId(),
                    line.skuId(), line.qty(), home, bucketCount.getAsInt(), command.commit(), command.fingerprint(),
                    now, holdEnds, command.caller(), epoch, command.customerId(), databaseAsked[0]);
            switch (reply) {
                case ReserveReply.Made made -> {
                    held.add(made.change());
                    return null;
                }
                case ReserveReply.Already already -> {
                    if (!already.state().equals(command.commit() ? "CONFIRMED" : "RESERVED")) {
                        // Not what an attempt of this request leaves: the order was settled since (its
                        // line restored from the database), and the database's copy answers.
                        throw new KnownToTheDatabase();
                    }
                    // An attempt of this order that died reserved the line under this epoch; what of
                    // it is still in the outbox (perhaps never journaled) is journaled with the rest.
                    held.add(lines.pending(line.skuId(), already.bucket(), already.entries()));
                    resumed.add(line.skuId());
                    return null;
                }
                case ReserveReply.Foreign foreign -> loader.rewriteLine(command.orderId(), line.skuId(), epoch);
                case ReserveReply.AskDatabase ask -> {
                    Refusal unknown = askDatabase(command.orderId());
                    if (unknown != null) {
                        return unknown;
                    }
                    databaseAsked[0] = true;
                }
                case ReserveReply.NotSold notSold -> throw notSold.why().takeOver(line.skuId(), epoch);
                case ReserveReply.Short shortOf -> {
                    return new Refusal.InsufficientStock(line.skuId(), line.qty(), shortOf.available());
                }
                case ReserveReply.Frozen frozen -> { return new Refusal.SkuFrozen(line.skuId()); }
                case ReserveReply.Throttled throttled -> {
                    return new Refusal.Throttled(line.skuId(), throttled.retryAfter());
                }
                case ReserveReply.OverLimit over -> {
                    return new Refusal.LimitExceeded(line.skuId(), command.customerId(), line.qty(), over.limit(),
                            over.held());
                }
                case ReserveReply.Cancelled cancelled -> { return new Refusal.OrderCancelled(command.orderId()); }
                case ReserveReply.Expired expired -> { return new Refusal.OrderExpired(command.orderId()); }
                case ReserveReply.Backlog backlog -> {
                    return new Refusal.Unavailable(false, "the journal of SKU " + line.skuId() + " is "
                            + backlog.length() + " changes behind");
                }
            }
        }
        return new Refusal.Unavailable(false, "the hot store's record of order " + command.orderId() + " on SKU "
                + line.skuId() + " kept changing");
    }

    /**
     * The database was made the judge of an order the hot store does not know (a loss of Redis's
     * data happened recently: load.lua): the order may be one the lost records had, acknowledged
     * through Kafka. Returns null when the database does not know it either (it is new), throws
     * {@link KnownToTheDatabase} when it does, and refuses (certainly not applied) when the database
     * cannot be asked: the hot store must not sell it again on a guess.
     */
    private Refusal askDatabase(OrderId order) {
        Optional<ReservationView> known;
        try {
            known = database.order(order);
        } catch (org.springframework.dao.DataAccessException e) {
            return new Refusal.Unavailable(false, "Redis lost data a moment ago, and the database cannot say yet "
                    + "whether order " + order + " was made before: retry");
        }
        if (known.isPresent()) {
            throw new KnownToTheDatabase();
        }
        return null;
    }

    /** The order was made before the hot store lost its record: the database's copy answers the retry. */
    private ReservationOutcome answerFromDatabase(ReserveCommand command, Instant now, Instant holdEnds, String trace,
            Map<SkuId, Long> epochs, Attempt attempt) {
        OrderId order = command.orderId();
        // A journal applied behind the answer (appended, or Kafka) may not have given the database the
        // order's last change yet (a confirm acknowledged a moment ago): its copy would answer a
        // state the client has already moved past. The database answers once it has everything
        // journaled for the order's SKUs; not within the wait, the retry is asked for, nothing applied.
        for (StockLine line : command.lines()) {
            if (!progress.awaitApplied(line.skuId(), DATABASE_COPY_WAIT)) {
                giveUp(command, now, attempt);
                return new Refusal.Unavailable(false, "the database has not yet applied every change of SKU "
                        + line.skuId() + " that order " + order + " is restored from: retry");
            }
        }
        loader.rewriteOrder(order, sku -> epochs.getOrDefault(sku, 0L));
        return switch (open(command, now, holdEnds, trace, attempt)) {
            case OpenReply.Done done -> replay(command, done);
            case OpenReply.Cancelled cancelled -> new Refusal.OrderCancelled(order);
            case OpenReply.Expired expired -> new Refusal.OrderExpired(order);
            case OpenReply.Conflict conflict -> new Refusal.IdempotencyConflict("order " + order);
            case OpenReply.Opened opened -> restoring(order);
            case OpenReply.Busy busy -> restoring(order);
            case OpenReply.Foreign foreign -> restoring(order);
        };
    }

    private static Refusal restoring(OrderId order) {
        return new Refusal.Unavailable(false, "order " + order + " is being restored from the database; retry");
    }

    /** reserve.lua asked for the database, and the database knows the order. */
    private static final class KnownToTheDatabase extends RuntimeException {
        KnownToTheDatabase() {
            super("the database knows the order", null, false, false);
        }
    }

    /** @param resumed how many of the held lines an earlier attempt reserved (this one finishes them) */
    private ReservationOutcome journalAndClose(ReserveCommand command, List<HotLines.Change> held, Set<SkuId> resumed,
            Instant now, Instant holdEnds, Map<SkuId, Long> epochs, long started, Attempt attempt) {
        OrderId order = command.orderId();
        List<HotLines.Change> earlier = EarlierGives.before(redis, held);
        List<StockEvent> events = new ArrayList<>();
        held.forEach(change -> events.addAll(change.events()));
        // Short of replicas, the reservation still stands (the history fence keeps a failover from
        // selling it again); the router hands its SKUs to the database after this answer.
        replicas.replicated();
        List<EventOutcome> outcomes;
        try {
            outcomes = Earlier.record(journal, earlier, events);
        } catch (DurableJournal.JournalUnavailableException e) {
            if (e.maybeRecorded()) {
                // The events may be durable: they stay in the outbox, and the sweeper settles them.
                log.warn("journal of order {} failed while committing; left to the outbox sweeper", order, e);
                return new Refusal.Unavailable(true, "the journal failed while committing");
            }
            log.warn("journal of order {} unavailable; its reservation is undone", order, e);
            return abandoned.abandon(order, held, command.caller(), now, epochs, started, resumed, attempt)
                    ? new Refusal.Unavailable(false, "the journal is unavailable")
                    : new Refusal.Unavailable(true, "the journal is unavailable and the undo came too late");
        }
        Optional<EventOutcome.Rejected> refused = outcomes.stream().filter(EventOutcome.Rejected.class::isInstance)
                .map(EventOutcome.Rejected.class::cast).findFirst();
        if (refused.isPresent()) {
            // The synchronous journal applies an order's events all or none: none of these applied.
            return abandoned.refusedByDatabase(command, held, events, outcomes, refused.get(), now, epochs, attempt);
        }
        List<ReservedLine> reserved = held.stream()
                .map(change -> new ReservedLine(change.skuId(), quantity(command, change.skuId()), change.bucket()))
                .toList();
        ReservationState state = command.commit() ? ReservationState.CONFIRMED : ReservationState.RESERVED;
        switch (forgetAndClose(command, earlier, held, state, reserved, epochs, now, attempt)) {
            case HotOrders.Closing.Cancelled cancelled -> {
                log.info("order {} was cancelled while its reservation was being made", order);
                return new Refusal.OrderCancelled(order);
            }
            case HotOrders.Closing.Taken taken -> {
                // This attempt went quiet long enough for another to take the record over; both made
                // the same idempotent line steps, and the order's outcome is the holder's.
                log.warn("order {}: another attempt took its record over; this one answers with that one's outcome",
                        order);
                return holdersOutcome(command, now, holdEnds, attempt);
            }
            case HotOrders.Closing.Closed closed -> { }
            case HotOrders.Closing.InState inState -> { }
        }
        String trace = command.caller().traceId() == null ? null : command.caller().traceId().value();
        // Every line reserved by an earlier attempt (this one only finished it): answered as the
        // replay it is, whether or not that attempt's answer reached the caller.
        boolean replayed = held.size() == resumed.size();
        return new ReservationOutcome.Reserved(new ReservationView(order, state, reserved, now, holdEnds,
                command.commit() ? now : null, null, trace, 0, command.customerId()), replayed);
    }

    /**
     * The outcome of the attempt that holds the order's record, once it has one: a replay of what it
     * made, or its refusal; "outcome unknown" while it is still at work (the client's retry asks again).
     */
    private ReservationOutcome holdersOutcome(ReserveCommand command, Instant now, Instant holdEnds, Attempt attempt) {
        OrderId order = command.orderId();
        String trace = command.caller().traceId() == null ? null : command.caller().traceId().value();
        return switch (open(command, now, holdEnds, trace, attempt)) {
            case OpenReply.Done done -> replay(command, done);
            case OpenReply.Cancelled cancelled -> new Refusal.OrderCancelled(order);
            case OpenReply.Expired expired -> new Refusal.OrderExpired(order);
            case OpenReply.Conflict conflict -> new Refusal.IdempotencyConflict("order " + order);
            case OpenReply.Opened resumed -> {
                // The holder gave up meanwhile and this look took the record back: handed back at once.
                giveUp(command, now, attempt);
                yield new Refusal.Unavailable(true, "order " + order + " was taken over by another attempt; retry");
            }
            case OpenReply.Busy busy -> new Refusal.Unavailable(true, "another attempt of order " + order
                    + " is finishing it; retry");
            case OpenReply.Foreign foreign -> new Refusal.Unavailable(true, "order " + order
                    + " is being restored from the database; retry");
        };
    }

    /**
     * The changes are in the journal now: their outbox entries go, then the order's record closes;
     * in one trip for a one-line order where Redis allows it ({@link OneLineTrips}).
     */
    private HotOrders.Closing forgetAndClose(ReserveCommand command, List<HotLines.Change> earlier,
            List<HotLines.Change> held, ReservationState state, List<ReservedLine> reserved, Map<SkuId, Long> epochs,
            Instant now, Attempt attempt) {
        SkuId sku = command.lines().getFirst().skuId();
        if (oneLine.apply(command) && Stream.concat(earlier.stream(), held.stream())
                .allMatch(change -> change.skuId().equals(sku))) {
            List<String> journaled = new ArrayList<>();
            earlier.forEach(change -> journaled.addAll(change.entryIds()));
            held.forEach(change -> journaled.addAll(change.entryIds()));
            return oneLine.forgetAndClose(command.orderId(), sku, journaled, state, reserved, epochs, now, attempt);
        }
        forget(earlier);
        forget(held);
        return orders.close(command.orderId(), state, reserved, epochs, now, attempt);
    }

    /** The changes are in the journal now: their outbox entries go, ahead of the order's close. */
    private void forget(List<HotLines.Change> held) {
        held.forEach(change -> redis.forgetJournaled(Keys.outbox(change.skuId()), change.entryIds()));
    }

    /** A retry's answer; the customer is the command's, since a retry for another would not be a replay. */
    private ReservationOutcome replay(ReserveCommand command, OpenReply.Done done) {
        OrderId order = command.orderId();
        ReservationState state = RecordedLines.state(done.state());
        return new ReservationOutcome.Reserved(new ReservationView(order, state,
                RecordedLines.decodeWithBuckets(done.recorded()), done.createdAt(), done.holdEndsAt(), null, null,
                done.traceId(), done.extensions(), command.customerId()), true);
    }

    private static int quantity(ReserveCommand command, SkuId sku) {
        return command.lines().stream().filter(l -> l.skuId().equals(sku)).findFirst().orElseThrow().qty();
    }
}
