package io.stockguard.access;

import java.time.Instant;
import org.springframework.security.core.AuthenticationException;

/** A login refused because its name had too many wrong passwords; says when it may try again. */
public class LoginThrottledException extends AuthenticationException {

    private final transient Instant until;

    LoginThrottledException(Instant until) {
        super("too many wrong passwords for this name; try again later");
        this.until = until;
    }

    public Instant until() {
        return until;
    }
}
