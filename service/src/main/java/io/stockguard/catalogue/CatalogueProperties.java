package io.stockguard.catalogue;

import static io.stockguard.platform.SettingChecks.requireBetween;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the bulk catalogue ({@code stockguard.catalogue.*}).
 *
 * @param importSizeMax the largest import file accepted; larger is refused 413 before any line is
 *     applied. 100,000 SKUs as CSV are about 3 MB
 * @param importLinesMax the most data lines one import may hold
 * @param batchSize lines per batch: new SKUs of a batch are created in one transaction, and the
 *     job's progress is recorded after each batch
 * @param parallelism batches applied at once, each on its own connection; lines are spread by SKU,
 *     so the lines of one SKU are still applied in file order. The database's work for new rows
 *     (17 per SKU of 8 buckets, with their index entries) is what an import waits for: on two cores,
 *     100,000 new SKUs took 33-45 s with 2 and 46-51 s with 1; more cores take more
 * @param errorsKept failed lines a job's report lists (all are counted)
 * @param abandonedAfter a running job whose progress has not moved for this long is reported
 *     ABANDONED: the instance running it stopped
 */
@Validated
@ConfigurationProperties("stockguard.catalogue")
public record CatalogueProperties(
        @NotNull @DefaultValue("256MB") DataSize importSizeMax,
        @Min(1) @Max(10_000_000) @DefaultValue("1000000") int importLinesMax,
        @Min(1) @Max(10_000) @DefaultValue("1000") int batchSize,
        @Min(1) @Max(16) @DefaultValue("2") int parallelism,
        @Min(0) @Max(100_000) @DefaultValue("1000") int errorsKept,
        @NotNull @DefaultValue("2m") Duration abandonedAfter) {

    public CatalogueProperties {
        if (importSizeMax != null && (importSizeMax.toBytes() < 1_024 || importSizeMax.toBytes() > DataSize.ofGigabytes(4).toBytes())) {
            throw new IllegalArgumentException("stockguard.catalogue.import-size-max must be between 1KB and 4GB, "
                    + "not " + importSizeMax);
        }
        requireBetween("stockguard.catalogue.abandoned-after", abandonedAfter, Duration.ofSeconds(10),
                Duration.ofHours(1));
    }
}
