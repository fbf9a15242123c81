package io.stockguard.platform;

import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.micrometer.tracing.autoconfigure.TracingProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Tracing is Spring Boot's: Micrometer Tracing on OpenTelemetry, W3C propagation, spans exported
 * over OTLP once {@code management.opentelemetry.tracing.export.otlp.endpoint} is set
 * (docs/operations.md, "Tracing"). The one change to Boot's defaults is the sampler.
 *
 * <p>Boot's sampler follows a caller's sampled {@code traceparent} and samples a share of the other
 * requests, whether or not anything will receive the spans. Without an exporter a recorded span is
 * pure cost on the hot path (attributes kept, the span queued and dropped), so with no exporter
 * this sampler records nothing; the tracer still runs, which keeps what the service has always done
 * with trace ids: the caller's is kept, a new one made otherwise, and passed on (log context,
 * responses, journal rows, Kafka headers). With an exporter (the OTLP one, or one a test adds) it
 * is Boot's sampler: parent-based, {@code management.tracing.sampling.probability} for new traces.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({Sampler.class, SpanExporter.class, TracingProperties.class})
class TracingConfiguration {

    private static final Logger log = LoggerFactory.getLogger(TracingConfiguration.class);

    @Bean
    Sampler stockguardSampler(ObjectProvider<SpanExporter> exporters, ObjectProvider<TracingProperties> properties) {
        List<String> present = exporters.orderedStream().map(exporter -> exporter.getClass().getSimpleName()).toList();
        if (present.isEmpty()) {
            log.info("tracing: no span exporter (management.opentelemetry.tracing.export.otlp.endpoint is not set); "
                    + "no span is recorded");
            return Sampler.alwaysOff();
        }
        float probability = properties.getIfAvailable(TracingProperties::new).getSampling().getProbability();
        log.info("tracing: spans exported by {}; new traces sampled with probability {}, a caller's sampled "
                + "traceparent followed", present, probability);
        return Sampler.parentBased(Sampler.traceIdRatioBased(probability));
    }
}
