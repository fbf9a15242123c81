package io.stockguard.platform;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Collects every violation of a request before refusing it, so the caller fixes all of them in
 * one round trip instead of one per attempt.
 */
public final class Violations {

    private final List<InvalidRequestException.FieldViolation> found = new ArrayList<>();

    /** Builds a value, recording its violation under {@code field} instead of throwing. */
    public <T> T check(String field, Supplier<T> build) {
        try {
            return build.get();
        } catch (InvalidRequestException e) {
            for (var violation : violationsOf(e)) {
                found.add(new InvalidRequestException.FieldViolation(field, violation.message()));
            }
            return null;
        }
    }

    public void add(String field, String message) {
        found.add(new InvalidRequestException.FieldViolation(field, message));
    }

    public boolean isEmpty() {
        return found.isEmpty();
    }

    public void throwIfAny() {
        if (!found.isEmpty()) {
            throw new InvalidRequestException(found);
        }
    }

    @SuppressWarnings("unchecked")
    private static List<InvalidRequestException.FieldViolation> violationsOf(InvalidRequestException e) {
        return (List<InvalidRequestException.FieldViolation>) e.properties().get("errors");
    }
}
