package io.stockguard.access;

import io.stockguard.platform.InvalidRequestException;

/** Every change to people and keys says why, like every other manual action. */
final class ManagementReasons {

    /** The audit log's reason column holds 500 characters. */
    static final int REASON_LENGTH_MAX = 500;

    private ManagementReasons() {
    }

    static String require(String reason) {
        if (reason == null || reason.isBlank()) {
            throw new InvalidRequestException("reason", "is required: say why, for whoever reads the audit log");
        }
        if (reason.length() > REASON_LENGTH_MAX) {
            throw new InvalidRequestException("reason", "is longer than " + REASON_LENGTH_MAX + " characters");
        }
        return reason.strip();
    }
}
