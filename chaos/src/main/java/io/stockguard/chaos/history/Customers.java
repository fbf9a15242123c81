package io.stockguard.chaos.history;

/**
 * Which orders of a run are placed for a named customer. The customer is a function of the order
 * id, so the history needs no field for it: the workload names the customer when it reserves, and
 * the checker finds it again from the order id. About one order in three is a customer's, spread
 * over a handful of customers so that their orders race for their limit from every client thread.
 */
public final class Customers {

    /** The customers of a run: few, so each has many orders at once. */
    public static final int COUNT = 6;
    /** The figure a create-sku records its per-customer limit under, in {@link Op#numbers()}. */
    public static final String LIMIT = "limitPerCustomer";

    private Customers() {
    }

    /** The customer of an order, or null for an order placed for nobody named. */
    public static String of(String orderId) {
        // String.hashCode is specified, so every JVM (and the checker, on a saved history) agrees.
        int hash = orderId.hashCode() & 0x7fffffff;
        return hash % 3 == 0 ? "u" + (hash / 3 % COUNT) : null;
    }
}
