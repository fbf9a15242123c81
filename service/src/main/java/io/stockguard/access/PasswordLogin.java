package io.stockguard.access;

import io.stockguard.platform.Actor;
import java.time.Clock;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.crypto.password.PasswordEncoder;

/**
 * Checks a person's name and password. A throttled name is refused before its password is
 * looked at, so a guesser learns nothing while throttled; an unknown name costs the same hash
 * comparison as a known one, so timing does not tell which names exist.
 */
final class PasswordLogin implements AuthenticationProvider {

    private static final Logger log = LoggerFactory.getLogger(PasswordLogin.class);
    /** Names that cannot exist share one throttle, so they cannot be used to fill the table. */
    private static final String INVALID_NAME = "-invalid-name-";

    private final People people;
    private final LoginThrottle throttle;
    private final PasswordEncoder passwords;
    private final Clock clock;
    private final String unknownNameHash;

    PasswordLogin(People people, LoginThrottle throttle, PasswordEncoder passwords, Clock clock) {
        this.people = people;
        this.throttle = throttle;
        this.passwords = passwords;
        this.clock = clock;
        this.unknownNameHash = passwords.encode(UUID.randomUUID().toString());
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        String name = authentication.getName() == null ? "" : authentication.getName().strip().toLowerCase(Locale.ROOT);
        String throttleKey = Person.NAME.matcher(name).matches() ? name : INVALID_NAME;
        Instant now = clock.instant();
        Optional<Instant> throttled = throttle.throttledUntil(throttleKey, now);
        if (throttled.isPresent()) {
            throw new LoginThrottledException(throttled.get());
        }
        String password = authentication.getCredentials() instanceof String text ? text : "";
        Optional<PersonStore.StoredPerson> person = throttleKey.equals(INVALID_NAME) ? Optional.empty()
                : people.credentials(name);
        boolean matches = passwords.matches(password, person.map(PersonStore.StoredPerson::passwordHash)
                .orElse(unknownNameHash));
        if (!matches || person.isEmpty()) {
            Optional<Instant> nowThrottled = throttle.recordFailure(throttleKey, now);
            if (nowThrottled.isPresent()) {
                log.warn("login name '{}' throttled until {} after too many wrong passwords", throttleKey,
                        nowThrottled.get());
                throw new LoginThrottledException(nowThrottled.get());
            }
            throw new BadCredentialsException("wrong name or password");
        }
        throttle.clear(throttleKey);
        PersonRole role = person.get().person().role();
        log.info("{} logged in to the console as {}", name, role);
        return UsernamePasswordAuthenticationToken.authenticated(new Actor(Actor.Kind.PERSON, name), null,
                role.authorities());
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return UsernamePasswordAuthenticationToken.class.isAssignableFrom(authentication);
    }
}
