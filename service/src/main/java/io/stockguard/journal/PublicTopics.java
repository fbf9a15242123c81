package io.stockguard.journal;

import java.time.Duration;

/**
 * Topics of the full tier's Kafka that other systems read, as opposed to the journal's own. Only
 * the full tier has them (there is no such bean without Kafka).
 */
public interface PublicTopics {

    /**
     * Sends one record and waits until the brokers have it (all in-sync replicas); throws when they
     * do not within {@code timeout}. The topic is created on first use, as the journal's are.
     */
    void send(String topic, String key, String value, Duration timeout);
}
