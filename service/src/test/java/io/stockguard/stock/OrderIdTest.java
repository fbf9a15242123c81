package io.stockguard.stock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stockguard.platform.InvalidRequestException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OrderIdTest {

    @Test
    void homeBucketIsFnv1aOfTheUtf8BytesSoEveryInstanceAndScriptAgrees() {
        // FNV-1a 32-bit of "a" is 0xe40c292c, of "foobar" 0xbf9cf968 (published test vectors).
        assertThat(OrderId.of("a").homeBucket(1 << 16)).isEqualTo(0x292c);
        assertThat(OrderId.of("foobar").homeBucket(1000)).isEqualTo((int) (0xbf9cf968L % 1000));
    }

    @Test
    void homeBucketsSpreadOrdersEvenly() {
        Map<Integer, Integer> counts = new HashMap<>();
        for (int i = 0; i < 80_000; i++) {
            counts.merge(OrderId.of("order-" + i).homeBucket(8), 1, Integer::sum);
        }
        assertThat(counts).hasSize(8);
        assertThat(counts.values()).allSatisfy(count -> assertThat(count).isBetween(9_000, 11_000));
    }

    @Test
    void refusesIdsThatAreEmptyTooLongOrUnsafe() {
        for (String bad : new String[] {"", "x".repeat(65), "a b", "'; DROP", "-leading", "é", "a/b"}) {
            assertThatThrownBy(() -> OrderId.of(bad)).as(bad).isInstanceOf(InvalidRequestException.class);
        }
        assertThat(OrderId.of("ORD-2026:11.11_0001").value()).isEqualTo("ORD-2026:11.11_0001");
    }
}
