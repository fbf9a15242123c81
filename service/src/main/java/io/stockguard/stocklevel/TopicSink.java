package io.stockguard.stocklevel;

import io.stockguard.journal.PublicTopics;
import java.time.Duration;

/**
 * The full tier's public topic: every event, keyed by SKU (so one SKU's events stay in order on
 * one partition), with the same JSON body the webhooks receive.
 */
final class TopicSink implements Sink {

    /** Webhooks may not take names of this form. */
    static final String PREFIX = "kafka:";

    private final PublicTopics topics;
    private final String topic;
    private final Duration timeout;

    TopicSink(PublicTopics topics, String topic, Duration timeout) {
        this.topics = topics;
        this.topic = topic;
        this.timeout = timeout;
    }

    @Override
    public String name() {
        return PREFIX + topic;
    }

    @Override
    public String deliver(StockLevelEvent event, String body) {
        try {
            topics.send(topic, event.skuId().value(), body, timeout);
            return null;
        } catch (RuntimeException e) {
            return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        }
    }
}
