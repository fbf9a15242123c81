package io.stockguard.access;

import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/** Forgets login names nobody has tried for a window, so the throttle table stays small. */
@Component
class LoginThrottleSweeper {

    private static final Logger log = LoggerFactory.getLogger(LoginThrottleSweeper.class);
    private static final long SWEEP_INTERVAL_MS = 300_000;

    private final LoginThrottle throttle;
    private final Clock clock;

    LoginThrottleSweeper(LoginThrottle throttle, Clock clock) {
        this.throttle = throttle;
        this.clock = clock;
    }

    @Scheduled(fixedDelay = SWEEP_INTERVAL_MS, initialDelay = SWEEP_INTERVAL_MS)
    void sweep() {
        try {
            throttle.sweep(clock.instant());
        } catch (RuntimeException e) {
            log.warn("cannot sweep the login throttle table: {}", e.toString());
        }
    }
}
