package io.stockguard.journal.jdbc;

import io.micrometer.core.instrument.MeterRegistry;
import io.stockguard.journal.ApplyMeter;
import io.stockguard.journal.DeadLetters;
import io.stockguard.journal.EventApplier;
import io.stockguard.journal.EventCodec;
import io.stockguard.journal.EventDeadLettered;
import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.Failures;
import io.stockguard.journal.StockEvent;
import io.stockguard.platform.Backoff;
import io.stockguard.platform.SqlStatements;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Applies the appended journal to the ledger tables, in entry order, exactly once: each
 * transaction claims the {@code applied} mark (one applier at a time across instances; another
 * finds it taken and leaves the entries to it), applies the entries after it with the same
 * applier the Kafka journal feeds, moves the mark and deletes what it applied, all in one commit.
 * An entry is never marked applied before the database has it, and never applied twice.
 *
 * <p>Woken by this instance's appends, and every {@link #POLL} for other instances'. While the
 * database is unavailable the same entries are tried again, with backoff, for as long as it takes.
 * A batch that fails otherwise is tried entry by entry, and an entry that fails alone
 * {@link #ATTEMPTS_BEFORE_DEAD_LETTER} times is set aside as dead letters (one per event, replayable
 * from the console), so that one bad entry cannot stop the journal, nor the hand-overs waiting on it.
 */
final class AppendedJournalApplier implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(AppendedJournalApplier.class);
    /** Entries applied in one transaction, at most: each is one request's events. */
    static final int ENTRIES_PER_BATCH_MAX = 500;
    /** How often another instance's entries are looked for when this one appended nothing. */
    static final Duration POLL = Duration.ofMillis(50);
    static final int ATTEMPTS_BEFORE_DEAD_LETTER = 3;
    private static final Duration RETRY_BACKOFF_FIRST = Duration.ofMillis(50);
    private static final Duration RETRY_BACKOFF_MAX = Duration.ofSeconds(2);

    /** What one attempt came to. */
    private sealed interface Step {
        /** Another applier holds the mark. */
        record Busy() implements Step {
        }

        record Applied(int entries, List<StockEvent> events, List<EventOutcome> outcomes) implements Step {
        }
    }

    private final TransactionTemplate transactions;
    private final JdbcTemplate jdbc;
    private final SqlStatements sql;
    private final EventApplier applier;
    private final DeadLetters deadLetters;
    private final ApplicationEventPublisher publisher;
    private final MeterRegistry meters;
    private final Clock clock;
    private final EventCodec codec = new EventCodec();
    private final ApplyMeter applyMeter;
    private volatile boolean running;
    private volatile Thread thread;

    AppendedJournalApplier(TransactionTemplate transactions, JdbcTemplate jdbc, SqlStatements sql,
            EventApplier applier, DeadLetters deadLetters, ApplicationEventPublisher publisher, MeterRegistry meters,
            Clock clock) {
        this.transactions = transactions;
        this.jdbc = jdbc;
        this.sql = sql;
        this.applier = applier;
        this.deadLetters = deadLetters;
        this.publisher = publisher;
        this.meters = meters;
        this.clock = clock;
        this.applyMeter = new ApplyMeter(meters, clock);
    }

    /** Something was appended: apply it now rather than at the next poll. */
    void wake() {
        Thread current = thread;
        if (current != null) {
            LockSupport.unpark(current);
        }
    }

    @Override
    public void start() {
        running = true;
        thread = Thread.ofPlatform().name("stockguard-journal-applier").daemon(true).start(this::run);
    }

    @Override
    public void stop() {
        running = false;
        Thread current = thread;
        if (current != null) {
            LockSupport.unpark(current);
            try {
                current.join(Duration.ofSeconds(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        thread = null;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Stops before the database beans it uses, starts after them. */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 100;
    }

    /**
     * Applies while there is work; between batches, looks for entries before it takes the mark.
     * Taking the mark when nothing waits cost a commit flushed to disk on PostgreSQL (the row lock
     * gives the transaction an id): at one request at a time that was a third flush per
     * reservation, beside the append's and the apply's, contending with both. After a full batch
     * the next is taken at once, without looking.
     */
    private void run() {
        boolean more = true;
        while (running) {
            if (!more && !anyPending()) {
                LockSupport.parkNanos(POLL.toNanos());
                continue;
            }
            Step step = applyWithRetries(ENTRIES_PER_BATCH_MAX);
            if (step == null) {
                applyAloneUntilSetAside();
                more = true;
            } else if (step instanceof Step.Applied applied && applied.entries() > 0) {
                applyMeter.applied(applied.events(), applied.outcomes());
                more = applied.entries() == ENTRIES_PER_BATCH_MAX;
            } else {
                LockSupport.parkNanos(POLL.toNanos());
                more = false;
            }
        }
    }

    /**
     * Whether an entry waits to be applied, from the marks, read without a lock. Only a shortcut:
     * the claim decides. A failed read answers yes, so that the claim meets the failure and its retries.
     */
    private boolean anyPending() {
        try {
            return JournalMarks.read(jdbc, sql).backlog() > 0;
        } catch (RuntimeException e) {
            return true;
        }
    }

    /**
     * A batch that keeps failing: its entries one by one, up to the one that fails alone, which is
     * set aside; then batches again. (Back to batches after each entry, every entry before the bad
     * one would cost the batch's failed attempts again.)
     */
    private void applyAloneUntilSetAside() {
        for (int i = 0; i < ENTRIES_PER_BATCH_MAX && running; i++) {
            Step step = applyWithRetries(1);
            if (step == null) {
                setAsideNext();
                return;
            }
            if (!(step instanceof Step.Applied applied) || applied.entries() == 0) {
                return;
            }
            applyMeter.applied(applied.events(), applied.outcomes());
        }
    }

    /**
     * One batch, tried again while the database is unavailable (for as long as it takes, until the
     * applier stops) and a few times after any other failure. Null when those attempts failed.
     */
    private Step applyWithRetries(int entriesMax) {
        Backoff backoff = new Backoff(RETRY_BACKOFF_FIRST, RETRY_BACKOFF_MAX);
        int failures = 0;
        int errors = 0;
        int conflicts = 0;
        while (running) {
            try {
                return transactions.execute(status -> applyNext(entriesMax));
            } catch (RuntimeException e) {
                Failures.Kind kind = Failures.kind(e);
                Duration wait = backoff.after(++failures);
                if (kind == Failures.Kind.UNAVAILABLE) {
                    log.warn("the database is unavailable to the journal applier ({}); retrying in {}",
                            Failures.summary(e), wait);
                } else {
                    int count = kind == Failures.Kind.CONFLICT ? ++conflicts : ++errors;
                    int max = kind == Failures.Kind.CONFLICT
                            ? ATTEMPTS_BEFORE_DEAD_LETTER * Failures.CONFLICTS_PER_ERROR : ATTEMPTS_BEFORE_DEAD_LETTER;
                    log.warn("applying up to {} journal entries failed ({} {} of {}): {}", entriesMax,
                            kind == Failures.Kind.CONFLICT ? "conflict" : "attempt", count, max, Failures.summary(e));
                    if (count >= max) {
                        return null;
                    }
                }
                LockSupport.parkNanos(wait.toNanos());
            }
        }
        return new Step.Busy();
    }

    private Step applyNext(int entriesMax) {
        List<Long> claimed = jdbc.queryForList(sql.get("claimApplying"), Long.class);
        if (claimed.isEmpty()) {
            return new Step.Busy();
        }
        List<Entry> entries = jdbc.query(sql.get("entriesAfter"), (rs, i) -> new Entry(rs.getLong("seq"),
                rs.getBytes("events")), claimed.getFirst(), entriesMax);
        if (entries.isEmpty()) {
            return new Step.Applied(0, List.of(), List.of());
        }
        List<StockEvent> events = new ArrayList<>();
        for (Entry entry : entries) {
            events.addAll(codec.decodeAll(entry.events()));
        }
        List<EventOutcome> outcomes = applier.apply(events, false);
        long last = entries.getLast().seq();
        jdbc.update(sql.get("markApplied"), last);
        jdbc.update(sql.get("deleteApplied"), claimed.getFirst(), last);
        return new Step.Applied(entries.size(), events, outcomes);
    }

    /** The next entry failed alone every time: its events become dead letters, and the journal moves on. */
    private void setAsideNext() {
        try {
            transactions.executeWithoutResult(status -> {
                List<Long> claimed = jdbc.queryForList(sql.get("claimApplying"), Long.class);
                if (claimed.isEmpty()) {
                    return;
                }
                List<Entry> next = jdbc.query(sql.get("entriesAfter"), (rs, i) -> new Entry(rs.getLong("seq"),
                        rs.getBytes("events")), claimed.getFirst(), 1);
                if (next.isEmpty()) {
                    return;
                }
                Entry entry = next.getFirst();
                String source = "journal_entry@" + entry.seq();
                String error = "failed " + ATTEMPTS_BEFORE_DEAD_LETTER + " times alone";
                try {
                    List<StockEvent> events = codec.decodeAll(entry.events());
                    for (int i = 0; i < events.size(); i++) {
                        StockEvent event = events.get(i);
                        keep(source + "#" + i, event.eventId(), event.skuId().value(),
                                new String(codec.encode(event), StandardCharsets.UTF_8), error);
                    }
                } catch (IllegalArgumentException unreadable) {
                    keep(source, null, null, EventCodec.preview(entry.events()), unreadable.getMessage());
                }
                jdbc.update(sql.get("markApplied"), entry.seq());
                jdbc.update(sql.get("deleteApplied"), claimed.getFirst(), entry.seq());
            });
        } catch (RuntimeException e) {
            log.warn("setting a journal entry aside failed ({}); trying it again", Failures.summary(e));
            LockSupport.parkNanos(RETRY_BACKOFF_MAX.toNanos());
        }
    }

    private void keep(String source, String eventId, String sku, String payload, String error) {
        deadLetters.keep(source, eventId, sku, payload, error, ATTEMPTS_BEFORE_DEAD_LETTER, clock.instant());
        log.error("journal event {} ({}) set aside as a dead letter: {}", source, eventId, error);
        meters.counter("stockguard.journal.dead.letters").increment();
        publisher.publishEvent(new EventDeadLettered(source, eventId, sku, error));
    }


    private record Entry(long seq, byte[] events) {
    }
}
