package io.stockguard.chaos.report;

import static io.stockguard.chaos.check.HistoryFixtures.history;
import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.chaos.check.Scenarios;
import org.junit.jupiter.api.Test;

class TimelineTest {

    @Test
    void countsAnswersPerSecondByWhatTheyProved() {
        Timeline timeline = Timeline.of(history().sku("SKU-1", 10)
                .at(1_000).readSku("c0", "SKU-1").stock(10, 10, 0, 0)
                .reserve("c1", "o1", "SKU-1:20").fail(409, "INSUFFICIENT_STOCK")
                .reserve("c2", "o2", "SKU-1:1").unavailable()
                .reserve("c3", "o3", "SKU-1:1").info()
                .at(2_500).readSku("c0", "SKU-1").stock(10, 10, 0, 0)
                .build());
        Timeline.Second first = timeline.seconds().get(1);
        assertThat(first.ok()).isEqualTo(1);
        assertThat(first.refused()).isEqualTo(1);
        assertThat(first.unavailable()).isEqualTo(1);
        assertThat(first.unknown()).isEqualTo(1);
        assertThat(timeline.seconds().get(2).total()).isEqualTo(1);
        assertThat(timeline.seconds()).hasSize(3);
    }

    @Test
    void marksFaultsAndHealsAndSpansBetweenThem() {
        Timeline timeline = Timeline.of(Scenarios.cleanRun().build());
        assertThat(timeline.seconds().get(5).marks()).containsExactly("kill-redis");
        assertThat(timeline.seconds().get(8).marks()).containsExactly("heal-kill-redis");
        assertThat(timeline.seconds().get(4).underFault()).isFalse();
        assertThat(timeline.seconds().get(6).underFault()).isTrue();
        assertThat(timeline.seconds().get(9).underFault()).isFalse();
        Timeline.Fault fault = timeline.faults().getFirst();
        assertThat(fault.span().fault()).isEqualTo("kill-redis");
        assertThat(fault.definite()).isLessThan(fault.answers());
        assertThat(fault.recovery().recovered()).isTrue();
    }
}
