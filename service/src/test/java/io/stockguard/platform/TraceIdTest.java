package io.stockguard.platform;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TraceIdTest {

    @Test
    void readsTheTraceIdOfAValidTraceparent() {
        assertThat(TraceId.fromTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"))
                .isEqualTo(new TraceId("4bf92f3577b34da6a3ce929d0e0e4736"));
    }

    @Test
    void ignoresMalformedTraceparents() {
        assertThat(TraceId.fromTraceparent(null)).isNull();
        assertThat(TraceId.fromTraceparent("garbage")).isNull();
        assertThat(TraceId.fromTraceparent("00-00000000000000000000000000000000-00f067aa0ba902b7-01")).isNull();
        assertThat(TraceId.fromTraceparent("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")).isNull();
        assertThat(TraceId.fromTraceparent("00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01")).isNull();
    }

    @Test
    void parsesATracersIdAndRefusesWhatIsNotOne() {
        assertThat(TraceId.parse("4bf92f3577b34da6a3ce929d0e0e4736"))
                .isEqualTo(new TraceId("4bf92f3577b34da6a3ce929d0e0e4736"));
        assertThat(TraceId.parse(null)).isNull();
        assertThat(TraceId.parse("")).as("a no-op tracer's id").isNull();
        assertThat(TraceId.parse("0".repeat(32))).isNull();
        assertThat(TraceId.parse("4BF92F3577B34DA6A3CE929D0E0E4736")).isNull();
    }

    @Test
    void randomIdsAreValidAndDistinct() {
        assertThat(TraceId.random()).isNotEqualTo(TraceId.random());
        assertThat(TraceId.random().value()).hasSize(32);
    }

    @Test
    void aTraceparentNamesTheTraceAndANewSpanNotSampled() {
        TraceId trace = TraceId.random();
        String first = trace.traceparent();
        assertThat(first).matches("00-" + trace.value() + "-[0-9a-f]{16}-00");
        assertThat(first.substring(36, 52)).isNotEqualTo("0".repeat(16));
        assertThat(TraceId.fromTraceparent(first)).isEqualTo(trace);
        assertThat(trace.traceparent()).as("each call its own span").isNotEqualTo(first);
    }
}
