package io.stockguard.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The bench's usage is the file the launcher prints for --help, and a wrong option is refused with it. */
class BenchOptionsTest {

    @Test
    void theUsageIsTheFileBesideTheOptions() {
        assertThat(BenchOptions.USAGE).startsWith("usage: ./stockguard bench").contains("--contender");
    }

    @Test
    void anUnknownOptionIsRefusedWithTheUsage() {
        assertThatThrownBy(() -> BenchOptions.parse("--colour=blue")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown option --colour=blue").hasMessageContaining(BenchOptions.USAGE);
    }

    @Test
    void theNetworkIsLocalUnlessTheRemoteScenarioIsAskedFor() {
        assertThat(BenchOptions.parse("--quick").network()).isEqualTo(Network.LOCAL);
        assertThat(BenchOptions.parse("--quick", "--network=remote").network()).isEqualTo(Network.REMOTE);
        assertThatThrownBy(() -> BenchOptions.parse("--network=moon")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--network is local or remote, not moon");
    }
}
