package io.stockguard.journal;

import io.stockguard.audit.AuditLog;
import io.stockguard.platform.Caller;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A person replays a dead letter after fixing its cause: its event is decoded and applied like
 * any journaled event (so applying it twice is impossible: a known event id is a duplicate), the
 * dead letter is marked replayed, and the action is audited with the reason.
 */
public final class EventDeadLetterReplay implements DeadLetterReplay {

    private final DeadLetters letters;
    private final EventApplier applier;
    private final EventCodec codec;
    private final AuditLog audit;
    private final TransactionTemplate transactions;
    private final Clock clock;

    public EventDeadLetterReplay(DeadLetters letters, EventApplier applier, EventCodec codec, AuditLog audit,
            TransactionTemplate transactions, Clock clock) {
        this.letters = letters;
        this.applier = applier;
        this.codec = codec;
        this.audit = audit;
        this.transactions = transactions;
        this.clock = clock;
    }

    @Override
    public Replayed replay(long id, String reason, Caller caller) {
        Optional<DeadLetter> found = letters.find(id);
        if (found.isEmpty()) {
            return new Replayed.Unknown(id);
        }
        DeadLetter letter = found.get();
        if (!letter.open()) {
            return new Replayed.AlreadyReplayed(letter);
        }
        EventOutcome outcome;
        try {
            StockEvent event = codec.decode(letter.payload().getBytes(StandardCharsets.UTF_8));
            outcome = applier.apply(List.of(event), false).getFirst();
        } catch (RuntimeException e) {
            return new Replayed.Failed(letter, Failures.summary(e));
        }
        String described = outcome instanceof EventOutcome.Rejected rejected
                ? "REJECTED " + rejected.reason() + ": " + rejected.detail() : outcome.toString();
        boolean marked = Boolean.TRUE.equals(transactions.execute(status -> {
            boolean first = letters.markReplayed(id, caller.actor().name(), clock.instant());
            if (first) {
                audit.record(caller.actor(), "REPLAY_DEAD_LETTER", "dead-letter:" + id, reason,
                        Map.of("error", letter.error(), "source", letter.source()), Map.of("outcome", described),
                        caller.traceId());
            }
            return first;
        }));
        DeadLetter now = letters.find(id).orElse(letter);
        return marked ? new Replayed.Applied(now, described) : new Replayed.AlreadyReplayed(now);
    }
}
