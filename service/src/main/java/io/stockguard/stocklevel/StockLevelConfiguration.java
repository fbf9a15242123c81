package io.stockguard.stocklevel;

import io.micrometer.core.instrument.MeterRegistry;
import io.stockguard.journal.PublicTopics;
import io.stockguard.platform.DutyLeases;
import java.net.http.HttpClient;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.TaskScheduler;

/** The watcher and the deliveries, unless stock-level events are switched off. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "stockguard.stock-levels.enabled", havingValue = "true", matchIfMissing = true)
class StockLevelConfiguration {

    /** Every webhook, and the public topic where the tier has Kafka. */
    @Bean
    EventDeliveries stockLevelDeliveries(StockLevelStore store, DutyLeases duties, StockLevelProperties properties,
            Subscriptions subscriptions, ObjectProvider<PublicTopics> topics, MeterRegistry meters, Clock clock) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(properties.timeout())
                .followRedirects(HttpClient.Redirect.NEVER).build();
        List<Sink> sinks = new ArrayList<>();
        properties.webhooks().forEach(webhook -> sinks.add(new WebhookSink(webhook, http, properties.timeout(), clock)));
        topics.ifAvailable(kafka -> sinks.add(new TopicSink(kafka, properties.topic(), properties.timeout())));
        return new EventDeliveries(store, duties, properties, sinks, subscriptions,
                subscription -> new WebhookSink(new StockLevelProperties.Webhook(subscription.name(), subscription.url(),
                        subscription.secret()), http, properties.timeout(), clock), meters, clock);
    }

    @Bean
    StockLevelWatcher stockLevelWatcher(StockLevelStore store, DutyLeases duties,
            StockLevelProperties properties, EventDeliveries deliveries, TaskScheduler scheduler,
            MeterRegistry meters, Clock clock) {
        return new StockLevelWatcher(store, duties, properties, deliveries::sinkNames,
                deliveries::nudge, scheduler, meters, clock);
    }
}
