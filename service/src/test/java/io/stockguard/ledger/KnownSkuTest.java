package io.stockguard.ledger;

import static io.stockguard.ledger.JournalEvents.A;
import static io.stockguard.ledger.JournalEvents.bucket;
import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.journal.EventOutcome;
import io.stockguard.stock.SkuMode;
import org.junit.jupiter.api.Test;

class KnownSkuTest {

    @Test
    void aSkuTheDatabaseDoesNotHaveIsRefused() {
        assertThat(KnownSku.judge(null)).isEqualTo(new Verdict.Refuse(EventOutcome.Reason.UNKNOWN_SKU,
                "no such SKU in the database"));
    }

    @Test
    void aSkuWithBucketsPassesWhateverItsMode() {
        assertThat(KnownSku.judge(bucket(A, SkuMode.FROZEN, 0, 0, 0, 0))).isEqualTo(Verdict.PASS);
    }
}
