package io.stockguard.chaos.check;

import io.stockguard.chaos.history.Op;
import java.util.List;

/**
 * Every answer a client gets is one the API promises: a 2xx, a 4xx, or a 503 that says which of
 * its two meanings it has ({@code UNAVAILABLE}: not applied, retry; {@code OUTCOME_UNKNOWN}: retry
 * to learn the outcome), or no answer at all (an instance killed, a timeout). A fault is a reason
 * for one of those; a {@code 500 INTERNAL} (or any other 5xx) is an unexpected failure that
 * reached the client, which leaves it to guess whether to retry. The other rules count such an
 * answer as in doubt and pass as long as a retry settles it in time; this one does not.
 */
final class ClearAnswers extends Rule {

    static final String NAME = "clear-answers";
    private static final List<String> PROMISED_503 = List.of("UNAVAILABLE", "OUTCOME_UNKNOWN");

    ClearAnswers() {
        super(NAME);
    }

    @Override
    String judge(Evidence evidence, CheckOptions options, Violations violations) {
        long serverErrors = 0;
        for (Op answer : evidence.clientAnswers()) {
            Integer status = answer.status();
            if (status == null || status < 500) {
                continue;
            }
            serverErrors++;
            if (status != 503 || answer.code() == null || !PROMISED_503.contains(answer.code())) {
                violations.add(answer.process() + " " + answer.f() + " was answered " + status + " "
                        + answer.code() + ": not an answer the API promises", List.of(answer));
            }
        }
        return evidence.clientAnswers().size() + " answers, " + serverErrors + " of them 5xx"
                + (violations.none() ? ": each a 503 UNAVAILABLE or OUTCOME_UNKNOWN"
                        : ", " + violations.count() + " not a promised 503");
    }
}
