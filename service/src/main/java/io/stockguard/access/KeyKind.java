package io.stockguard.access;

/** What a key may call: the reservation API (order services) or everything (operators' scripts). */
public enum KeyKind {
    ORDER_SERVICE,
    ADMIN
}
