package io.stockguard.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfilerTest {

    @Test
    void writesARecordingOfWhatRanWhileItWasOpen(@TempDir Path folder) throws Exception {
        Profiler profiler = Profiler.into(folder.resolve("results"));
        try (Profiler.Profile profile = profiler.record("hot-sku-stockguard-db-64-1")) {
            long sum = 0;
            for (int i = 0; i < 50_000_000; i++) {
                sum += i % 7;
            }
            assertThat(sum).isPositive();
        }

        Path file = folder.resolve("results").resolve("hot-sku-stockguard-db-64-1.jfr");
        assertThat(RecordingFile.readAllEvents(file)).isNotEmpty();
        assertThat(profiler.recordings()).isEqualTo(1);
    }

    @Test
    void offRecordsNothing(@TempDir Path folder) throws Exception {
        try (Profiler.Profile profile = Profiler.OFF.record("x")) {
            assertThat(profile).isNotNull();
        }
        assertThat(Profiler.OFF.recordings()).isZero();
    }
}
