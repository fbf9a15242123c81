package io.stockguard.hotstore;

import io.stockguard.platform.Backoff;
import io.stockguard.reservation.ReserveCommand;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The way into an order's record for a reservation: its idempotency gate, waited at while another attempt holds it. */
final class OpeningGate {

    private static final Logger log = LoggerFactory.getLogger(OpeningGate.class);
    /** How long a retry waits for its original to finish; a reservation takes milliseconds. */
    private static final Duration BUSY_WAIT_MAX = Duration.ofSeconds(2);
    /**
     * Between its looks at the record. Bounded by {@link #BUSY_WAIT_MAX}, not by a count of
     * attempts, which is why this is a loop and not Resilience4j's {@code Retry}.
     */
    private static final Backoff BUSY_BACKOFF = new Backoff(Duration.ofMillis(1), Duration.ofMillis(50));

    private final HotOrders orders;
    private final InstancePresence presence;

    OpeningGate(HotOrders orders, InstancePresence presence) {
        this.orders = orders;
        this.presence = presence;
    }

    /**
     * Opens the order record. A concurrent request for the same order (a client's retry racing its
     * original) waits for the original to finish, briefly and with backoff, and then gets its outcome,
     * as it would from the database ledger, where the second insert waits on the first. A record held
     * by an attempt of an instance gone from Redis (killed) is taken over at once.
     */
    OpenReply open(ReserveCommand command, Instant now, Instant holdEnds, String trace, Attempt attempt) {
        return through(command, now, holdEnds, trace, attempt, orders.open(command.orderId(), command.fingerprint(),
                command.lines(), now, holdEnds, trace, command.customerId(), attempt, ""));
    }

    /**
     * The gate's answer given OPEN's first one ({@code opened}, from {@link #open} or from a script
     * that opens among its steps): a BUSY record is waited at as {@link #open} says.
     */
    OpenReply through(ReserveCommand command, Instant now, Instant holdEnds, String trace, Attempt attempt,
            OpenReply opened) {
        long deadline = System.nanoTime() + BUSY_WAIT_MAX.toNanos();
        int waits = 0;
        String checked = null;
        while (opened instanceof OpenReply.Busy busy && System.nanoTime() < deadline) {
            String gone = "";
            if (!busy.holder().equals(checked)) {
                checked = busy.holder();
                gone = presence.gone(checked) ? checked : "";
            }
            if (!gone.isEmpty()) {
                log.info("order {}: the instance holding its record is gone; this request takes it over",
                        command.orderId());
                opened = orders.open(command.orderId(), command.fingerprint(), command.lines(), now, holdEnds, trace,
                        command.customerId(), attempt, gone);
                continue;
            }
            LockSupport.parkNanos(BUSY_BACKOFF.after(++waits).toNanos());
            opened = orders.open(command.orderId(), command.fingerprint(), command.lines(), now, holdEnds, trace,
                    command.customerId(), attempt, "");
        }
        return opened;
    }

}
