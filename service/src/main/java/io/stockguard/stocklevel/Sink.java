package io.stockguard.stocklevel;

/** Where events go: a webhook, or the full tier's public topic. */
interface Sink {

    /** How its deliveries are recorded. */
    String name();

    /** Hands the event over; null when the sink took it, or why not. */
    String deliver(StockLevelEvent event, String body);
}
