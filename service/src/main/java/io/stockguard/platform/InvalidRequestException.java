package io.stockguard.platform;

import java.util.List;
import java.util.Map;

/** Input that breaks a documented limit; answered 400 {@code INVALID_REQUEST} with every violation. */
public class InvalidRequestException extends ApiProblemException {

    public InvalidRequestException(String field, String message) {
        this(List.of(new FieldViolation(field, message)));
    }

    public InvalidRequestException(List<FieldViolation> violations) {
        super(ProblemCode.INVALID_REQUEST, summary(violations), Map.of("errors", List.copyOf(violations)));
    }

    private static String summary(List<FieldViolation> violations) {
        if (violations.isEmpty()) {
            throw new IllegalArgumentException("an invalid request names at least one violation");
        }
        FieldViolation first = violations.getFirst();
        return first.field() + ": " + first.message();
    }

    /** One broken rule on one field of the request. */
    public record FieldViolation(String field, String message) {
    }
}
