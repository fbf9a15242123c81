package io.stockguard.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TeardownTest {

    @Test
    void closesTheLastAddedFirstAndOnlyOnce() throws Exception {
        List<String> closed = new ArrayList<>();
        Teardown teardown = Teardown.onExit();
        teardown.add(() -> closed.add("server"));
        teardown.add(() -> {
            closed.add("failing service");
            throw new IllegalStateException("already gone");
        });
        teardown.add(() -> closed.add("service"));

        teardown.close();
        teardown.close();

        assertThat(closed).containsExactly("service", "failing service", "server");
        assertThatThrownBy(() -> teardown.add(() -> closed.add("late"))).isInstanceOf(IllegalStateException.class);
        assertThat(closed).endsWith("late");
    }

    /** SIGTERM, as {@code kill} or a CI's timeout sends it: what the bench started is closed before the JVM goes. */
    @Test
    void closesOnSigterm(@TempDir Path folder) throws Exception {
        Path ready = folder.resolve("ready");
        Path closed = folder.resolve("closed");
        Process bench = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), StoppedBench.class.getName(), ready.toString(),
                closed.toString()).inheritIO().start();
        try {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                    .until(() -> Files.exists(ready) || !bench.isAlive());
            assertThat(ready).exists();
            bench.destroy();
            assertThat(bench.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(closed).hasContent("closed");
        } finally {
            bench.destroyForcibly();
        }
    }

    /** A bench that starts a "server" and runs until it is stopped. */
    static final class StoppedBench {

        public static void main(String[] args) throws Exception {
            Teardown teardown = Teardown.onExit();
            teardown.add(() -> Files.writeString(Path.of(args[1]), "closed"));
            Files.writeString(Path.of(args[0]), "ready");
            // Runs until it is stopped: nothing ever counts this down.
            new CountDownLatch(1).await(2, TimeUnit.MINUTES);
        }
    }
}
