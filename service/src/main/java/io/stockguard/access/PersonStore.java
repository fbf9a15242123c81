package io.stockguard.access;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Where people created from the console are kept: the {@code person} table. */
public interface PersonStore {

    /** A stored person with the hash of their password, which never leaves the access module. */
    record StoredPerson(Person person, String passwordHash) {
    }

    List<StoredPerson> all(int limit);

    Optional<StoredPerson> find(String name);

    long count();

    /** Inserts inside the caller's transaction; false when the name is taken. */
    boolean insert(String name, PersonRole role, String passwordHash, String createdBy, Instant at);

    boolean setRole(String name, PersonRole role, Instant at);

    boolean setEnabled(String name, boolean enabled, Instant at);

    boolean setPasswordHash(String name, String passwordHash, Instant at);
}
