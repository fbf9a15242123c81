package io.stockguard.alerting;

import io.micrometer.core.instrument.MeterRegistry;
import io.stockguard.alerting.webhook.WebhookChannel;
import io.stockguard.audit.AuditLog;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.transaction.support.TransactionTemplate;

/** Wires the channels of {@code stockguard.alerting} to their workers, the recorder and the sweeper. */
@Configuration(proxyBeanMethods = false)
class AlertingConfiguration {

    /** Dedupe keys and rate-limit keys remembered; far above the SKUs that alert within one window. */
    private static final int KEYS_MAX = 100_000;

    @Bean(destroyMethod = "close")
    AlertDispatcher alerts(AlertingProperties properties, AlertStore store, AuditLog audit,
            TransactionTemplate transactions, MeterRegistry meters, Clock clock) {
        AlertRecorder recorder = new AlertRecorder(store, meters);
        String instance = properties.instance() == null || properties.instance().isBlank() ? hostName()
                : properties.instance();
        ChannelWorker.Policy policy = new ChannelWorker.Policy(properties.retries(), properties.retryBackoff(),
                properties.deliveryDeadline());
        List<ChannelWorker> workers = properties.enabled() ? properties.channels().stream()
                .map(channel -> new ChannelWorker(WebhookChannel.of(channel, instance, properties.smsLengthMax(), clock),
                        properties.queueCapacity(), policy, recorder, meters, clock))
                .toList() : List.of();
        AlertingProperties.RateLimit limit = properties.rateLimitPerSkuAndLevel();
        return new AlertDispatcher(properties.enabled(), workers, new DedupeWindow(properties.dedupeWindow(), KEYS_MAX),
                new ChannelRateLimit(limit.max(), limit.window(), KEYS_MAX), recorder, audit, transactions, meters,
                clock);
    }

    @Bean
    AlertSweeper alertSweeper(AlertStore store, AlertingProperties properties, TaskScheduler scheduler, Clock clock) {
        return new AlertSweeper(store, properties.retention(), scheduler, clock);
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "stockguard";
        }
    }
}
