package io.stockguard.access;

import java.time.Instant;
import java.util.Optional;

/**
 * Counts wrong passwords per login name, for every instance at once: after
 * {@code login-failures-max} within {@code login-failure-window} the name is refused for
 * {@code login-throttle}, whatever password comes next. Counting per name, not per address, stops
 * an attacker who spreads guesses over many addresses.
 */
public interface LoginThrottle {

    /** When the name may try again, or empty when it may try now. */
    Optional<Instant> throttledUntil(String name, Instant now);

    /** Counts a wrong password; returns when the name may try again if this failure throttled it. */
    Optional<Instant> recordFailure(String name, Instant now);

    /** A right password: the count starts again. */
    void clear(String name);

    /** Forgets names whose window has passed and that are not throttled; returns how many. */
    int sweep(Instant now);
}
