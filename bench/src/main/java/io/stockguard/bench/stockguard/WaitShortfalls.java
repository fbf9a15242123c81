package io.stockguard.bench.stockguard;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;

/**
 * Counts the reservations whose Redis {@code WAIT} timed out before a replica confirmed them. The
 * service says so only in a warning per reservation (no meter), so the bench counts those warnings
 * and keeps them off the console, where thousands of them would bury the results. Matched by the
 * message of {@code HotReservations.waitForReplicas}: should it change, the count reads 0.
 */
final class WaitShortfalls extends TurboFilter {

    static final String MESSAGE = "a reservation reached {} of {} replicas within {}";

    private final LongAdder shortfalls = new LongAdder();

    /** The filter installed in the service's logging, installing it the first time. */
    static WaitShortfalls installed() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        synchronized (WaitShortfalls.class) {
            for (TurboFilter filter : context.getTurboFilterList()) {
                if (filter instanceof WaitShortfalls existing) {
                    return existing;
                }
            }
            WaitShortfalls filter = new WaitShortfalls();
            filter.start();
            context.addTurboFilter(filter);
            return filter;
        }
    }

    @Override
    public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params,
            Throwable t) {
        if (MESSAGE.equals(format)) {
            shortfalls.increment();
            return FilterReply.DENY;
        }
        return FilterReply.NEUTRAL;
    }

    /** Shortfalls counted so far, in every service of this JVM. */
    long count() {
        return shortfalls.sum();
    }
}
