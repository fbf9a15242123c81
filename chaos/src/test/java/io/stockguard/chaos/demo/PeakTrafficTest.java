package io.stockguard.chaos.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class PeakTrafficTest {

    private final PeakTraffic traffic = new PeakTraffic(Duration.ofSeconds(30), 12);

    @Test
    void beforeMidnightShoppersBrowseThenTheSpikeRunsUntilTheSecondWaveIsPlaced() {
        assertThat(traffic.at(Duration.ZERO)).isSameAs(PeakTraffic.BEFORE_MIDNIGHT);
        assertThat(traffic.at(Duration.ofMillis(29_999))).isSameAs(PeakTraffic.BEFORE_MIDNIGHT);
        assertThat(traffic.at(Duration.ofSeconds(30))).isSameAs(PeakTraffic.MIDNIGHT);
        assertThat(traffic.at(Duration.ofMinutes(9))).as("no second wave placed yet").isSameAs(PeakTraffic.MIDNIGHT);
    }

    @Test
    void theSecondWaveComesWhereItIsPlacedAndTheTailAfterIt() {
        traffic.secondWave(Duration.ofSeconds(100), Duration.ofSeconds(160));

        assertThat(traffic.at(Duration.ofSeconds(99))).isSameAs(PeakTraffic.MIDNIGHT);
        assertThat(traffic.at(Duration.ofSeconds(100))).isSameAs(PeakTraffic.SECOND_WAVE);
        assertThat(traffic.at(Duration.ofSeconds(159))).isSameAs(PeakTraffic.SECOND_WAVE);
        assertThat(traffic.at(Duration.ofSeconds(160))).isSameAs(PeakTraffic.TAIL);
    }

    @Test
    void theShapeIsTheSeedsPeak() {
        assertThat(PeakTraffic.BEFORE_MIDNIGHT.think()).as("browsing is slow").isPositive();
        assertThat(PeakTraffic.MIDNIGHT.hotPerMille()).as("one SKU takes most of the orders").isGreaterThan(900);
        assertThat(PeakTraffic.SECOND_WAVE.shoppers()).isEqualTo(io.stockguard.chaos.workload.Traffic.Shoppers.QUERY);
        assertThat(PeakTraffic.SECOND_WAVE.queryPerMille()).as("stock queries outnumber the rest").isGreaterThan(500);
        assertThat(traffic.shopperThreads()).isEqualTo(12);
        assertThat(PeakTraffic.TAIL.shoppers()).isEqualTo(io.stockguard.chaos.workload.Traffic.Shoppers.IDLE);
    }

    @Test
    void whileTheDatabaseIsAwayNewShoppersOrderWhateverThePhase() {
        traffic.ordersGoOn(true);
        assertThat(traffic.at(Duration.ZERO)).isSameAs(PeakTraffic.ORDERS_GO_ON);
        assertThat(PeakTraffic.ORDERS_GO_ON.shoppers()).isEqualTo(io.stockguard.chaos.workload.Traffic.Shoppers.ORDER);

        traffic.ordersGoOn(false);
        assertThat(traffic.at(Duration.ZERO)).isSameAs(PeakTraffic.BEFORE_MIDNIGHT);
    }
}
