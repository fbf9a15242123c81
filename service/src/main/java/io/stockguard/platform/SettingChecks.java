package io.stockguard.platform;

import java.time.Duration;

/**
 * Start-up checks of settings that bean validation cannot express, failing with the setting's
 * full name so that a bad value stops the service with a message saying which one and why.
 */
public final class SettingChecks {

    private SettingChecks() {
    }

    /**
     * Fails unless {@code min <= value <= max}. A missing value or bound is left to the
     * {@code @NotNull} on the setting (bean validation runs after the record is built).
     */
    public static void requireBetween(String setting, Duration value, Duration min, Duration max) {
        if (value != null && min != null && max != null && (value.compareTo(min) < 0 || value.compareTo(max) > 0)) {
            throw new IllegalArgumentException(setting + " must be between " + min + " and " + max + ", was " + value);
        }
    }
}
