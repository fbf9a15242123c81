package io.stockguard.access;

import java.time.Instant;
import java.util.List;

/** Where keys created from the console are kept: the {@code api_key} table (hashes only). */
public interface KeyStore {

    /** A key as stored: its secret's SHA-256, never the secret. */
    record StoredKey(String name, KeyKind kind, String secretHash, Instant createdAt, String createdBy,
            Instant revokedAt, String revokedBy) {

        public boolean revoked() {
            return revokedAt != null;
        }
    }

    List<StoredKey> all(int limit);

    long count();

    /** Inserts inside the caller's transaction; false when the name is taken. */
    boolean insert(String name, KeyKind kind, String secretHash, String createdBy, Instant at);

    /** Revokes inside the caller's transaction; false when there is no such unrevoked key. */
    boolean revoke(String name, String revokedBy, Instant at);
}
