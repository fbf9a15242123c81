package io.stockguard.embedded;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a start without PostgreSQL binaries into Boot's short "APPLICATION FAILED TO START" report
 * (what happened, what to do) instead of a hundred lines of bean-creation stack trace.
 */
class MissingBinariesAnalyzer extends AbstractFailureAnalyzer<PostgresBinaries.Missing> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, PostgresBinaries.Missing cause) {
        return new FailureAnalysis(cause.getMessage(), PostgresBinaries.Missing.ACTION, cause);
    }
}
