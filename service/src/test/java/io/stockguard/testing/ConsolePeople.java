package io.stockguard.testing;

import java.util.Map;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;

/**
 * People configured for console tests, one per role, with their passwords. Hashed at cost 4 so
 * that logging in costs a test milliseconds; the service reads the cost from each hash.
 */
public final class ConsolePeople {

    public record Login(String name, String password) {
    }

    public static final Login OPERATOR = new Login("olga", "olga-password-0123");
    public static final Login VIEWER = new Login("victor", "victor-password-0123");
    public static final Login ADMIN = new Login("ada", "ada-password-01234");
    /** Used only by the throttle test, which locks this name out. */
    public static final Login THROTTLED = new Login("tess", "tess-password-01234");

    private ConsolePeople() {
    }

    /** Settings for {@link RunningService#start} that configure the four people. */
    public static Map<String, String> settings() {
        BCryptPasswordEncoder bcrypt = new BCryptPasswordEncoder(4);
        String users = String.join(",",
                OPERATOR.name() + ":OPERATOR:{bcrypt}" + bcrypt.encode(OPERATOR.password()),
                VIEWER.name() + ":VIEWER:{bcrypt}" + bcrypt.encode(VIEWER.password()),
                ADMIN.name() + ":ADMIN:{bcrypt}" + bcrypt.encode(ADMIN.password()),
                THROTTLED.name() + ":VIEWER:{bcrypt}" + bcrypt.encode(THROTTLED.password()));
        return Map.of("stockguard.security.people.users", users);
    }
}
