package io.stockguard.chaos.demo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ScrapeTest {

    private static final String SCRAPE = """
            # HELP stockguard_hot_takeovers_total SKUs this instance took from the hot store
            # TYPE stockguard_hot_takeovers_total counter
            stockguard_hot_takeovers_total{application="stockguard"} 3.0
            stockguard_hot_takeovers_total{application="stockguard",extra="x"} 2.0
            stockguard_hot_takeovers_totally_different 100.0
            stockguard_journal_backlog 1.2345E4
            """;

    @Test
    void everySeriesOfTheMetricIsSummedAndNoOther() {
        assertThat(Scrape.sum(SCRAPE, "stockguard_hot_takeovers_total")).hasValue(5.0);
        assertThat(Scrape.sum(SCRAPE, "stockguard_journal_backlog")).hasValue(12_345.0);
    }

    @Test
    void aMetricTheScrapeDoesNotHaveIsEmptyNotZero() {
        assertThat(Scrape.sum(SCRAPE, "stockguard_journal_backlogged")).isEmpty();
    }
}
