package io.stockguard.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stockguard.platform.Caller;
import io.stockguard.platform.InvalidRequestException;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.StockLine;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReserveCommandTest {

    private static ReserveCommand command(boolean commit, StockLine... lines) {
        return new ReserveCommand(OrderId.of("o-1"), List.of(lines), Duration.ofMinutes(15), commit, Caller.SYSTEM);
    }

    @Test
    void fingerprintIgnoresLineOrderButNotQuantitiesOrCommit() {
        StockLine a = new StockLine(SkuId.of("A"), 1);
        StockLine b = new StockLine(SkuId.of("B"), 2);
        assertThat(command(false, a, b).fingerprint()).isEqualTo(command(false, b, a).fingerprint());
        assertThat(command(false, a, b).fingerprint())
                .isNotEqualTo(command(false, a, new StockLine(SkuId.of("B"), 3)).fingerprint())
                .isNotEqualTo(command(true, a, b).fingerprint());
    }

    @Test
    void linesAreLockedInSkuOrder() {
        StockLine z = new StockLine(SkuId.of("Z"), 1);
        StockLine a = new StockLine(SkuId.of("A"), 1);
        assertThat(command(false, z, a).linesInLockOrder()).containsExactly(a, z);
    }

    @Test
    void refusesDuplicateSkusAndEmptyOrders() {
        StockLine a = new StockLine(SkuId.of("A"), 1);
        assertThatThrownBy(() -> command(false, a, new StockLine(SkuId.of("A"), 2)))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("twice");
        assertThatThrownBy(() -> command(false)).isInstanceOf(InvalidRequestException.class);
    }
}
