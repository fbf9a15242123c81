package io.stockguard.access;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * People who log in to the console ({@code stockguard.security.people.*}).
 *
 * @param users configured people, each {@code name:ROLE:hash} with a bcrypt hash ({@code {bcrypt}$2a$…}
 *     or a bare {@code $2a$}/{@code $2b$}/{@code $2y$} hash; {@code ./stockguard hash-password} makes
 *     one). Plain passwords are refused. More people can be added from the console by an admin.
 * @param sessionTimeout how long a console session lives without a request to any instance (1m to 24h)
 * @param loginFailuresMax wrong passwords for one login name within {@code loginFailureWindow}
 *     after which the name is throttled (3 to 100)
 * @param loginFailureWindow the window in which wrong passwords are counted (1m to 24h)
 * @param loginThrottle how long a throttled name is refused, even with the right password (1m to 24h)
 */
@ConfigurationProperties("stockguard.security.people")
public record PeopleProperties(@DefaultValue List<String> users, @DefaultValue("30m") Duration sessionTimeout,
        @DefaultValue("10") int loginFailuresMax, @DefaultValue("15m") Duration loginFailureWindow,
        @DefaultValue("15m") Duration loginThrottle) {

    private static final Duration DURATION_MIN = Duration.ofMinutes(1);
    private static final Duration DURATION_MAX = Duration.ofHours(24);

    public PeopleProperties {
        users = List.copyOf(users);
        List<String> problems = new ArrayList<>();
        checkDuration("session-timeout", sessionTimeout, problems);
        checkDuration("login-failure-window", loginFailureWindow, problems);
        checkDuration("login-throttle", loginThrottle, problems);
        if (loginFailuresMax < 3 || loginFailuresMax > 100) {
            problems.add("stockguard.security.people.login-failures-max must be between 3 and 100, was "
                    + loginFailuresMax);
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < users.size(); i++) {
            String problem = ConfiguredPerson.problemWith(users.get(i));
            if (problem != null) {
                problems.add("stockguard.security.people.users[" + i + "] " + problem);
            } else if (!names.add(ConfiguredPerson.parse(users.get(i)).name())) {
                problems.add("stockguard.security.people.users[" + i + "] repeats a name");
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
    }

    private static void checkDuration(String property, Duration value, List<String> problems) {
        if (value == null || value.compareTo(DURATION_MIN) < 0 || value.compareTo(DURATION_MAX) > 0) {
            problems.add("stockguard.security.people." + property + " must be between 1m and 24h, was " + value);
        }
    }

    /** The configured people, parsed. */
    List<ConfiguredPerson> configured() {
        return users.stream().map(ConfiguredPerson::parse).toList();
    }
}
