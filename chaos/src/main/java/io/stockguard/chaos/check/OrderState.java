package io.stockguard.chaos.check;

/** An order's state as the API names it, plus {@link #ABSENT} for an order the service does not know (404). */
public enum OrderState {
    ABSENT, RESERVED, CONFIRMED, CANCELLED, EXPIRED;

    /** The state an answer names, or null when it names none the checker knows. */
    static OrderState parse(String state) {
        if (state == null) {
            return null;
        }
        try {
            return valueOf(state);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** How a final read shows it: the state, or the 404 an unknown order gets. */
    String shown() {
        return this == ABSENT ? "404 UNKNOWN_ORDER" : name();
    }
}
