package io.stockguard.reconciliation.web;

import io.stockguard.platform.ApiProblemException;
import io.stockguard.platform.CurrentRequest;
import io.stockguard.platform.InvalidRequestException;
import io.stockguard.reconciliation.DriftProbe;
import io.stockguard.reconciliation.Healing;
import io.stockguard.reconciliation.Reading;
import io.stockguard.reconciliation.Readings;
import io.stockguard.stock.SkuId;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(path = "/api/v1/admin", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Admin: reconciliation", description = "Exact drift between hot store and database; heal")
class ReconciliationController {

    private static final int LIMIT_MAX = 1_000;

    private final DriftProbe probe;
    private final Healing healing;
    private final Readings readings;

    ReconciliationController(DriftProbe probe, Healing healing, Readings readings) {
        this.probe = probe;
        this.healing = healing;
        this.readings = readings;
    }

    @PostMapping("/skus/{skuId}/probe")
    @Operation(summary = "Probe a SKU now",
            description = "Measures the exact drift R - D - (J - A) and the ledger's own invariant, keeps the reading "
                    + "and answers it as the scheduled probe would (warn, throttle, freeze).")
    ReadingView probeNow(@PathVariable String skuId) {
        SkuId id = SkuId.of(skuId);
        return ReadingView.of(probe.probe(id, true, true).orElseThrow(() -> unknown(id)));
    }

    @GetMapping("/skus/{skuId}/drift")
    @Operation(summary = "A SKU's drift readings, newest first")
    List<ReadingView> history(@PathVariable String skuId, @RequestParam(defaultValue = "50") int limit) {
        return readings.newest(SkuId.of(skuId), checked(limit)).stream().map(ReadingView::of).toList();
    }

    @GetMapping("/drift")
    @Operation(summary = "The newest readings that found drift, a regression or a ledger mismatch, any SKU")
    List<ReadingView> wrong(@RequestParam(defaultValue = "50") int limit) {
        return readings.newestWrong(checked(limit)).stream().map(ReadingView::of).toList();
    }

    record HealRequest(String reason, Boolean unfreeze) {
    }

    record HealView(String skuId, ReadingView before, ReadingView after, boolean rebased, String mode,
            boolean ledgerSound) {
    }

    /** A reading as JSON: units signed, percent of the SKU's total. */
    record ReadingView(String skuId, java.time.Instant measuredAt, String kind, String level, long driftUnits,
            double driftPercent, long total, long inFlight, String detail) {

        static ReadingView of(Reading r) {
            return new ReadingView(r.skuId().value(), r.measuredAt(), r.kind().name(), r.level().name(), r.units(),
                    r.percent(), r.total(), r.inFlight(), r.detail());
        }
    }

    @PostMapping(path = "/skus/{skuId}/heal", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Heal a SKU: drain and rebase",
            description = "Freezes the SKU, waits until its journal is applied, sets the hot store from the database "
                    + "under a new epoch, and unfreezes only if unfreeze is true and the SKU is then in step. Answers "
                    + "the readings before and after; audited as HEAL.")
    HealView heal(@PathVariable String skuId, @RequestBody HealRequest body, HttpServletRequest request) {
        if (body == null) {
            throw new InvalidRequestException("reason", "is required");
        }
        SkuId id = SkuId.of(skuId);
        probe.measure(id, false).orElseThrow(() -> unknown(id));
        Healing.Healed healed = healing.heal(id, body.reason(), Boolean.TRUE.equals(body.unfreeze()),
                CurrentRequest.actor(), CurrentRequest.traceId(request));
        return new HealView(id.value(), ReadingView.of(healed.before()), ReadingView.of(healed.after()),
                healed.rebased(), healed.mode(), healed.ledgerSound());
    }

    private static int checked(int limit) {
        if (limit < 1 || limit > LIMIT_MAX) {
            throw new InvalidRequestException("limit", "must be between 1 and " + LIMIT_MAX);
        }
        return limit;
    }

    private static ApiProblemException unknown(SkuId id) {
        return ApiProblemException.unknownSku(id.value());
    }
}
