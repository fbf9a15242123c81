package io.stockguard.chaos.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.stockguard.chaos.history.History;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StallsTest {

    @TempDir
    Path folder;

    @Test
    void collectorPausesOfTheShownLengthArePlacedInTheHistorysTime() throws Exception {
        History history = new History();
        long now = System.currentTimeMillis();
        Files.writeString(folder.resolve("instance-a-1-gc.log"), String.join("\n",
                "[" + now + "ms] Using Serial",
                "[" + (now + 1_000) + "ms] GC(0) Pause Young (Allocation Failure) 101M->74M(365M) 59.524ms",
                "[" + (now + 5_000) + "ms] GC(1) Pause Full (Allocation Failure) 500M->490M(512M) 3912.250ms",
                ""));
        Files.writeString(folder.resolve("instance-a-1.log"), "[" + now + "ms] GC(9) Pause Full 9999.0ms\n");

        List<Stalls.Stall> pauses = Stalls.collectorPauses(folder, history);

        assertThat(pauses).hasSize(1);
        Stalls.Stall pause = pauses.getFirst();
        assertThat(pause.who()).isEqualTo("instance-a-1 (collector)");
        assertThat(pause.lengthMillis()).isEqualTo(3912);
        // The line is written when the pause ends; the stall began its length before.
        assertThat(pause.atMillis()).isBetween(5_000 - 3_912 - 1_000L, 5_000 - 3_912 + 1_000L);
        assertThat(Stalls.describe(pauses)).contains("instance-a-1 (collector) at ").contains("for 3912 ms");
    }

    @Test
    void aRunWithoutStallsSaysSo() {
        assertThat(Stalls.describe(List.of())).startsWith("stalls of 200 ms or more: none");
    }

    @Test
    void theRunnersOwnStallIsMeasured() throws Exception {
        History history = new History();
        // A clock that runs with the meter's ticks, and once jumps 1.5 s between two of them: the
        // machine held the runner that long.
        AtomicLong calls = new AtomicLong();
        AtomicLong nanos = new AtomicLong();
        Stalls stalls = Stalls.measure(history, () -> {
            long call = calls.incrementAndGet();
            return nanos.addAndGet(call == 20 ? 1_500_000_000L : 2_500_000L);
        });
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> !stalls.runnerSoFar().isEmpty());
        } finally {
            stalls.halt();
        }
        List<Stalls.Stall> measured = stalls.stop(folder);
        assertThat(measured).hasSize(1);
        assertThat(measured.getFirst().who()).isEqualTo("runner");
        assertThat(measured.getFirst().lengthMillis()).isBetween(1_490L, 1_500L);
    }
}
