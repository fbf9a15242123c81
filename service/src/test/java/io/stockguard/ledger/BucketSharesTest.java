package io.stockguard.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BucketSharesTest {

    @Test
    void evenSharesDifferByAtMostOneAndSumToTheQuantity() {
        assertThat(BucketShares.even(8000, 8)).containsOnly(1000);
        assertThat(BucketShares.even(10, 8)).containsExactly(2, 2, 1, 1, 1, 1, 1, 1);
        assertThat(BucketShares.even(3, 8)).containsExactly(1, 1, 1, 0, 0, 0, 0, 0);
    }

    @Test
    void proportionalSharesNeverExceedABucketAndSumToTheQuantity() {
        Random random = new Random(7);
        for (int run = 0; run < 2_000; run++) {
            long[] available = new long[1 + random.nextInt(16)];
            for (int i = 0; i < available.length; i++) {
                available[i] = random.nextInt(50);
            }
            long sum = Arrays.stream(available).sum();
            long quantity = sum == 0 ? 0 : random.nextLong(sum + 1);
            long[] shares = BucketShares.proportional(quantity, available);
            assertThat(Arrays.stream(shares).sum()).isEqualTo(quantity);
            for (int i = 0; i < shares.length; i++) {
                assertThat(shares[i]).isBetween(0L, available[i]);
            }
        }
    }

    @Test
    void refusesToTakeMoreThanThereIs() {
        assertThatThrownBy(() -> BucketShares.proportional(11, new long[] {5, 5}))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
