package io.stockguard.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.stockguard.testing.Ids;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testing.StockGuardClient.Response;
import io.stockguard.testkit.KafkaCluster;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TestDatabase;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.SpanExporters;
import org.springframework.context.annotation.Bean;

/**
 * Tracing on the full tier (Redis, Kafka, PostgreSQL). Switched on (an exporter, every trace
 * sampled), one reservation is one trace under the caller's trace id: the HTTP server span, the
 * Redis script, the Kafka send and, across Kafka, the database writer's apply, and the id the
 * service answers and journals is that trace's. With the default settings nothing is recorded and
 * nothing exported, and the trace ids behave as they did before tracing; the OTLP endpoint alone
 * turns export on.
 */
class TracingIT {

    private static final Duration SPANS_WAIT_MAX = Duration.ofSeconds(60);
    private static final AttributeKey<String> SCRIPT = AttributeKey.stringKey("script");
    private static final AttributeKey<String> JOURNAL = AttributeKey.stringKey("journal");

    private static RedisServer redis;
    private static KafkaCluster kafka;

    @BeforeAll
    static void start() {
        redis = RedisServer.start();
        kafka = KafkaCluster.single();
    }

    @AfterAll
    static void stop() {
        kafka.close();
        redis.close();
    }

    /** A stand-in for the collector: the spans the service exports, kept in memory. */
    static class InMemorySpans {
        @Bean
        InMemorySpanExporter inMemorySpanExporter() {
            return InMemorySpanExporter.create();
        }
    }

    /** Counts every span the tracer records, exported or not; adds no exporter. */
    static class RecordedSpans {
        static final AtomicInteger RECORDED = new AtomicInteger();

        @Bean
        SpanProcessor recordedSpanCounter() {
            return new SpanProcessor() {
                @Override
                public void onStart(Context parentContext, ReadWriteSpan span) {
                    RECORDED.incrementAndGet();
                }

                @Override
                public boolean isStartRequired() {
                    return true;
                }

                @Override
                public void onEnd(ReadableSpan span) {
                }

                @Override
                public boolean isEndRequired() {
                    return false;
                }
            };
        }
    }

    @Test
    void aReservationIsOneTraceFromTheRequestThroughRedisAndKafkaToTheDatabaseApply() {
        Map<String, String> tracingOn = Map.of("management.tracing.sampling.probability", "1.0");
        try (RunningService service = RunningService.startFull(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                redis.uri(), kafka.bootstrapServers(), tracingOn, InMemorySpans.class)) {
            InMemorySpanExporter exporter = service.bean(InMemorySpanExporter.class);
            String sku = Ids.sku("traced");
            assertThat(service.client().putSku(sku, 10).ok()).isTrue();

            // The caller's trace is continued.
            String trace = TraceId.random().value();
            String callerSpan = "00f067aa0ba902b7";
            String order = Ids.order("traced");
            Response reserved = reserve(service, order, sku, "00-" + trace + "-" + callerSpan + "-01");
            assertThat(reserved.ok()).as("reservation: %s", reserved.raw().body()).isTrue();
            assertThat(reserved.raw().headers().firstValue("X-Trace-Id")).contains(trace);
            assertThat(reserved.text("traceId")).isEqualTo(trace);
            service.awaitJournalApplied(sku);

            List<SpanData> spans = awaitSpans(service, exporter, trace, "stockguard.journal.apply");
            SpanData http = only(spans, span -> span.getKind() == SpanKind.SERVER, "the HTTP server span");
            assertThat(http.getName()).isEqualTo("http post /api/v1/reservations");
            assertThat(http.getParentSpanId()).as("the server span's parent: the caller's span").isEqualTo(callerSpan);
            assertThat(reserved.raw().headers().firstValue("traceparent"))
                    .contains("00-" + trace + "-" + http.getSpanId() + "-01");
            assertThat(spans).as("Redis script spans").anySatisfy(span -> {
                assertThat(span.getName()).isEqualTo("stockguard.redis.script");
                // A one-line order on a single Redis opens its record and reserves in one script.
                assertThat(span.getAttributes().get(SCRIPT)).isEqualTo("open_reserve");
            });
            SpanData send = only(spans, span -> span.getName().equals("stockguard.journal.send"), "the Kafka send");
            assertThat(send.getKind()).isEqualTo(SpanKind.PRODUCER);
            SpanData apply = only(spans, span -> span.getName().equals("stockguard.journal.apply"),
                    "the database writer's apply");
            assertThat(apply.getKind()).isEqualTo(SpanKind.CONSUMER);
            assertThat(apply.getAttributes().get(JOURNAL)).isEqualTo("kafka");
            assertThat(apply.getParentSpanId()).as("the apply's parent: the send, read from the record's headers")
                    .isEqualTo(send.getSpanId());
            assertThat(journaledTraceIds(service, order)).containsExactly(trace);
            // Spring Security's observations (a span per filter) are off: they cost a tenth of the CPU.
            assertThat(spans).extracting(SpanData::getName).as("spans of the trace")
                    .noneMatch(name -> name.startsWith("security") || name.startsWith("spring.security")
                            || name.contains("authorize") || name.contains("authenticate"));

            // A request without a traceparent starts a trace, and its id is the one answered.
            String second = Ids.order("traced");
            Response started = reserve(service, second, sku, null);
            assertThat(started.ok()).as("reservation: %s", started.raw().body()).isTrue();
            String answered = started.raw().headers().firstValue("X-Trace-Id").orElseThrow();
            service.awaitJournalApplied(sku);
            List<SpanData> secondSpans = awaitSpans(service, exporter, answered, "stockguard.journal.apply");
            SpanData root = only(secondSpans, span -> span.getKind() == SpanKind.SERVER, "the HTTP server span");
            assertThat(root.getParentSpanContext().isValid()).as("a new trace's server span has no parent").isFalse();
            assertThat(started.raw().headers().firstValue("traceparent"))
                    .contains("00-" + answered + "-" + root.getSpanId() + "-01");
            assertThat(secondSpans).extracting(SpanData::getName)
                    .contains("stockguard.redis.script", "stockguard.journal.send", "stockguard.journal.apply");
            assertThat(journaledTraceIds(service, second)).containsExactly(answered);
        }
    }

    @Test
    void byDefaultNothingIsRecordedOrExportedAndTraceIdsBehaveAsBefore() throws Exception {
        assertThatThrownBy(() -> Class.forName("io.micrometer.registry.otlp.OtlpMeterRegistry"))
                .as("no OTLP meter registry pushing metrics to a collector")
                .isInstanceOf(ClassNotFoundException.class);
        String topic = "stockguard.events." + UUID.randomUUID();
        RecordedSpans.RECORDED.set(0);
        try (RunningService service = RunningService.startFull(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                redis.uri(), kafka.bootstrapServers(), Map.of("stockguard.kafka.topic", topic),
                RecordedSpans.class)) {
            assertThat(service.bean(SpanExporters.class).list()).as("span exporters").isEmpty();
            String sku = Ids.sku("untraced");
            assertThat(service.client().putSku(sku, 10).ok()).isTrue();

            // A caller's sampled traceparent: kept, answered and journaled, but not recorded.
            String trace = TraceId.random().value();
            String order = Ids.order("untraced");
            Response reserved = reserve(service, order, sku, "00-" + trace + "-00f067aa0ba902b7-01");
            assertThat(reserved.ok()).as("reservation: %s", reserved.raw().body()).isTrue();
            assertThat(reserved.raw().headers().firstValue("X-Trace-Id")).contains(trace);
            assertThat(reserved.raw().headers().firstValue("traceparent").orElseThrow())
                    .matches("00-" + trace + "-[0-9a-f]{16}-01");
            assertThat(reserved.text("traceId")).isEqualTo(trace);

            // No traceparent: a new id, answered in both headers.
            String second = Ids.order("untraced");
            Response started = reserve(service, second, sku, null);
            assertThat(started.ok()).as("reservation: %s", started.raw().body()).isTrue();
            String answered = started.raw().headers().firstValue("X-Trace-Id").orElseThrow();
            assertThat(answered).matches("[0-9a-f]{32}").isNotEqualTo(trace);
            assertThat(started.raw().headers().firstValue("traceparent").orElseThrow())
                    .matches("00-" + answered + "-[0-9a-f]{16}-01");

            // A body refused before anything reads it: the problem names the trace id too.
            String tooLargeTrace = TraceId.random().value();
            Response tooLarge = service.client().execute(HttpRequest.newBuilder(
                            URI.create(service.baseUrl() + "/api/v1/reservations"))
                    .header("Authorization", "Bearer " + RunningService.API_KEY)
                    .header("Content-Type", "application/json")
                    .header("traceparent", "00-" + tooLargeTrace + "-00f067aa0ba902b7-01")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"orderId\":\"" + "x".repeat(70_000) + "\"}"))
                    .build());
            assertThat(tooLarge.status()).isEqualTo(413);
            assertThat(tooLarge.raw().headers().firstValue("X-Trace-Id")).contains(tooLargeTrace);
            assertThat(tooLarge.text("traceId")).isEqualTo(tooLargeTrace);

            // A refused request's problem body names its trace id too.
            String refusedTrace = TraceId.random().value();
            Response refused = reserve(service, Ids.order("untraced"), Ids.sku("missing"),
                    "00-" + refusedTrace + "-00f067aa0ba902b7-01");
            assertThat(refused.ok()).isFalse();
            assertThat(refused.text("traceId")).isEqualTo(refusedTrace);

            service.awaitJournalApplied(sku);
            assertThat(journaledTraceIds(service, order)).containsExactly(trace);
            assertThat(journaledTraceIds(service, second)).containsExactly(answered);
            // The tracer runs all the same and agrees: every record's traceparent (not sampled)
            // names the trace id the service journaled with it.
            List<String[]> headers = traceHeadersOnTheTopic(topic, sku);
            assertThat(headers).extracting(pair -> pair[1]).contains(trace, answered);
            assertThat(headers).allSatisfy(pair -> assertThat(pair[0]).as("traceparent of a record of trace %s", pair[1])
                    .matches("00-" + pair[1] + "-[0-9a-f]{16}-00"));
            service.bean(SdkTracerProvider.class).forceFlush().join(10, TimeUnit.SECONDS);
            assertThat(RecordedSpans.RECORDED.get()).as("spans recorded").isZero();

            // The observations are timers all the same, under the names operations.md gives.
            String metrics = service.admin().send("GET", "/actuator/prometheus", null).raw().body();
            assertThat(metrics).contains("stockguard_redis_script_seconds_count{error=\"none\",script=\"open_reserve\"}",
                    "stockguard_journal_send_seconds_count{error=\"none\"}",
                    "stockguard_journal_apply_seconds_count{error=\"none\",journal=\"kafka\"}");
            // Timers only: no long-task timer per observation (a second meter look-up on each).
            assertThat(metrics).doesNotContain("stockguard_redis_script_active_seconds",
                    "http_server_requests_active_seconds");
        }
    }

    /**
     * The documented switch: the OTLP endpoint alone turns export on. A collector stand-in on
     * loopback receives the spans of a caller's sampled trace over OTLP/HTTP.
     */
    @Test
    void theOtlpEndpointAloneTurnsExportOn() throws Exception {
        List<byte[]> received = new java.util.concurrent.CopyOnWriteArrayList<>();
        HttpServer collector = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        collector.createContext("/v1/traces", exchange -> {
            received.add(exchange.getRequestBody().readAllBytes());
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        collector.start();
        String endpoint = "http://127.0.0.1:" + collector.getAddress().getPort() + "/v1/traces";
        try (RunningService service = RunningService.start(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                Map.of("management.opentelemetry.tracing.export.otlp.endpoint", endpoint))) {
            assertThat(service.bean(SpanExporters.class).list()).as("span exporters").hasSize(1);
            String sku = Ids.sku("exported");
            assertThat(service.client().putSku(sku, 10).ok()).isTrue();
            TraceId trace = TraceId.random();
            Response reserved = reserve(service, Ids.order("exported"), sku,
                    "00-" + trace.value() + "-00f067aa0ba902b7-01");
            assertThat(reserved.ok()).as("reservation: %s", reserved.raw().body()).isTrue();
            byte[] traceBytes = java.util.HexFormat.of().parseHex(trace.value());
            await().atMost(SPANS_WAIT_MAX).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                service.bean(SdkTracerProvider.class).forceFlush().join(10, TimeUnit.SECONDS);
                assertThat(received).as("OTLP requests carrying trace %s", trace)
                        .anySatisfy(body -> assertThat(indexOf(body, traceBytes)).isNotNegative());
            });
        } finally {
            collector.stop(0);
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (java.util.Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        return -1;
    }

    private static Response reserve(RunningService service, String order, String sku, String traceparent) {
        String body = "{\"orderId\":\"" + order + "\",\"lines\":[{\"skuId\":\"" + sku + "\",\"qty\":1}]}";
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(service.baseUrl() + "/api/v1/reservations"))
                .header("Authorization", "Bearer " + RunningService.API_KEY)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (traceparent != null) {
            request.header("traceparent", traceparent);
        }
        return service.client().execute(request.build());
    }

    /** The spans of one trace, once one named {@code last} is among them (the writer ends its apply last). */
    private static List<SpanData> awaitSpans(RunningService service, InMemorySpanExporter exporter, String trace,
            String last) {
        List<SpanData> spans = new ArrayList<>();
        await().atMost(SPANS_WAIT_MAX).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            service.bean(SdkTracerProvider.class).forceFlush().join(10, TimeUnit.SECONDS);
            spans.clear();
            exporter.getFinishedSpanItems().stream().filter(span -> span.getTraceId().equals(trace))
                    .forEach(spans::add);
            assertThat(spans).extracting(SpanData::getName).contains(last);
        });
        return spans;
    }

    private static SpanData only(List<SpanData> spans, java.util.function.Predicate<SpanData> which, String what) {
        List<SpanData> found = spans.stream().filter(which).toList();
        assertThat(found).as("%s among %s", what, spans.stream().map(SpanData::getName).toList()).hasSize(1);
        return found.getFirst();
    }

    private static List<String> journaledTraceIds(RunningService service, String order) {
        return service.jdbc().queryForList("SELECT trace_id FROM stock_event WHERE order_id = ?", String.class,
                order);
    }

    /** The {@code traceparent} and {@code trace-id} headers of every record of the SKU on the event topic. */
    private static List<String[]> traceHeadersOnTheTopic(String topic, String sku) {
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "tracing-it-" + UUID.randomUUID(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, Duration.ofSeconds(10));
            List<String[]> found = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))
                    && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    if (sku.equals(record.key())) {
                        found.add(new String[] {header(record, "traceparent"), header(record, "trace-id")});
                    }
                }
            }
            return found;
        }
    }

    private static String header(ConsumerRecord<String, byte[]> record, String key) {
        Header header = record.headers().lastHeader(key);
        return header == null ? "none" : new String(header.value(), StandardCharsets.UTF_8);
    }
}
