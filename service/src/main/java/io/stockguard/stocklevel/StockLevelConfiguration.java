package io.stockguard.stocklevel;

import io.micrometer.core.instrument.MeterRegistry;
import io.stockguard.platform.DutyLeases;
import io.stockguard.reservation.Reservations;
import java.time.Clock;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.TaskScheduler;

/** The watcher and the webhook deliveries, unless stock-level events are switched off. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "stockguard.stock-levels.enabled", havingValue = "true", matchIfMissing = true)
class StockLevelConfiguration {

    @Bean
    StockLevelWatcher stockLevelWatcher(StockLevelStore store, Reservations reservations, DutyLeases duties,
            StockLevelProperties properties, TaskScheduler scheduler, MeterRegistry meters, Clock clock) {
        return new StockLevelWatcher(store, reservations, duties, properties, scheduler, meters, clock);
    }

    @Bean
    WebhookDeliveries stockLevelWebhooks(StockLevelStore store, DutyLeases duties, StockLevelProperties properties,
            MeterRegistry meters, Clock clock) {
        return new WebhookDeliveries(store, duties, properties, meters, clock);
    }
}
