package io.stockguard.access;

import io.stockguard.audit.AuditLog;
import io.stockguard.platform.ApiProblemException;
import io.stockguard.platform.Caller;
import io.stockguard.platform.InvalidRequestException;
import io.stockguard.platform.ProblemCode;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The people who may log in: those configured in the environment (fixed while the service runs)
 * and those an admin created from the console (the {@code person} table). Every change is audited
 * in the same transaction; a password or its hash never reaches the audit log.
 */
@Service
public class People {

    /** More people than any operations team has; bounds every listing. */
    public static final int PEOPLE_MAX = 1000;

    private final Map<String, ConfiguredPerson> configured = new LinkedHashMap<>();
    private final PersonStore store;
    private final PasswordEncoder passwords;
    private final AuditLog audit;
    private final TransactionTemplate transactions;
    private final Clock clock;

    People(PeopleProperties properties, PersonStore store, PasswordEncoder passwords, AuditLog audit,
            TransactionTemplate transactions, Clock clock) {
        properties.configured().forEach(person -> configured.put(person.name(), person));
        this.store = store;
        this.passwords = passwords;
        this.audit = audit;
        this.transactions = transactions;
        this.clock = clock;
    }

    public List<Person> all() {
        List<Person> all = new ArrayList<>();
        configured.values().forEach(person -> all.add(fromConfiguration(person)));
        store.all(PEOPLE_MAX).forEach(stored -> all.add(stored.person()));
        return all;
    }

    public Optional<Person> find(String name) {
        ConfiguredPerson person = configured.get(name);
        if (person != null) {
            return Optional.of(fromConfiguration(person));
        }
        return store.find(name).map(PersonStore.StoredPerson::person);
    }

    /** The password hash of an enabled person, for login only. */
    Optional<PersonStore.StoredPerson> credentials(String name) {
        ConfiguredPerson person = configured.get(name);
        if (person != null) {
            return Optional.of(new PersonStore.StoredPerson(fromConfiguration(person), person.passwordHash()));
        }
        return store.find(name).filter(stored -> stored.person().enabled());
    }

    public Person create(String name, PersonRole role, String password, String reason, Caller caller) {
        String checkedReason = ManagementReasons.require(reason);
        checkNewName(name);
        if (role == null) {
            throw new InvalidRequestException("role", "must be VIEWER, OPERATOR or ADMIN");
        }
        checkPassword(password);
        String hash = passwords.encode(password);
        return transactions.execute(status -> {
            if (store.count() >= PEOPLE_MAX) {
                throw new InvalidRequestException("name", "there are already " + PEOPLE_MAX + " people");
            }
            if (!store.insert(name, role, hash, caller.actor().toString(), clock.instant())) {
                throw conflict(name);
            }
            Person created = store.find(name).orElseThrow().person();
            audit.record(caller.actor(), "PERSON_CREATE", target(name), checkedReason, null, state(created),
                    caller.traceId());
            return created;
        });
    }

    public Person changeRole(String name, PersonRole role, String reason, Caller caller) {
        String checkedReason = ManagementReasons.require(reason);
        if (role == null) {
            throw new InvalidRequestException("role", "must be VIEWER, OPERATOR or ADMIN");
        }
        return change(name, caller, "PERSON_ROLE", checkedReason, at -> store.setRole(name, role, at));
    }

    public Person setEnabled(String name, boolean enabled, String reason, Caller caller) {
        String checkedReason = ManagementReasons.require(reason);
        return change(name, caller, enabled ? "PERSON_ENABLE" : "PERSON_DISABLE", checkedReason,
                at -> store.setEnabled(name, enabled, at));
    }

    public Person resetPassword(String name, String password, String reason, Caller caller) {
        String checkedReason = ManagementReasons.require(reason);
        checkPassword(password);
        String hash = passwords.encode(password);
        return change(name, caller, "PERSON_PASSWORD", checkedReason, at -> store.setPasswordHash(name, hash, at));
    }

    private Person change(String name, Caller caller, String action, String reason,
            java.util.function.Predicate<java.time.Instant> update) {
        if (configured.containsKey(name)) {
            throw new InvalidRequestException("name", "is configured in the environment "
                    + "(stockguard.security.people.users); change it there");
        }
        if (caller.actor().kind() == io.stockguard.platform.Actor.Kind.PERSON && caller.actor().name().equals(name)) {
            // An admin who demotes or disables themselves may leave nobody able to undo it.
            throw new InvalidRequestException("name", "is you: ask another admin to change your own account");
        }
        return transactions.execute(status -> {
            Person before = store.find(name).map(PersonStore.StoredPerson::person).orElseThrow(() -> unknown(name));
            update.test(clock.instant());
            Person after = store.find(name).orElseThrow().person();
            audit.record(caller.actor(), action, target(name), reason, state(before), state(after), caller.traceId());
            return after;
        });
    }

    private void checkNewName(String name) {
        if (name == null || !Person.NAME.matcher(name).matches()) {
            throw new InvalidRequestException("name", "must be 1-64 characters of a-z 0-9 . _ - (lower case), "
                    + "starting with a letter or digit");
        }
        if (configured.containsKey(name)) {
            throw conflict(name);
        }
    }

    private static void checkPassword(String password) {
        String problem = Person.problemWithPassword(password);
        if (problem != null) {
            throw new InvalidRequestException("password", problem);
        }
    }

    private static Map<String, Object> state(Person person) {
        return Map.of("role", person.role().name(), "enabled", person.enabled());
    }

    private static String target(String name) {
        return "person:" + name;
    }

    private static ApiProblemException conflict(String name) {
        return new ApiProblemException(ProblemCode.NAME_TAKEN, "a person named '" + name + "' exists",
                Map.of("name", name));
    }

    private static ApiProblemException unknown(String name) {
        return new ApiProblemException(ProblemCode.NOT_FOUND, "no person named '" + name
                + "' was created from the console", Map.of("name", name));
    }

    private static Person fromConfiguration(ConfiguredPerson person) {
        return new Person(person.name(), person.role(), true, Person.Source.CONFIGURATION, null, "configuration",
                null);
    }
}
