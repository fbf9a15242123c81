package io.stockguard.hotstore.web;

import io.stockguard.guard.SkuGuards;
import io.stockguard.platform.ApiProblemException;
import io.stockguard.platform.CurrentRequest;
import io.stockguard.platform.InvalidRequestException;
import io.stockguard.platform.ProblemCode;
import io.stockguard.hotstore.HotStore;
import io.stockguard.stock.SkuId;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(path = "/api/v1/admin", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Admin: hot store", description = "Preheat, rebuild and inspect the Redis hot store (standard and full tiers)")
class AdminHotStoreController {

    private final ObjectProvider<HotStore> hotStore;

    AdminHotStoreController(ObjectProvider<HotStore> hotStore) {
        this.hotStore = hotStore;
    }

    record ReasonRequest(String reason) {
    }

    @PostMapping("/preheat")
    @Operation(summary = "Load every SKU into Redis in paced batches (200 per batch, 50 ms apart); returns at once",
            description = "Follow progress with GET /api/v1/admin/preheat. A preheat already running is returned as is.")
    ResponseEntity<HotStore.PreheatStatus> preheat(HttpServletRequest request) {
        return ResponseEntity.status(HttpStatus.ACCEPTED).body(hotStore().preheat(CurrentRequest.caller(request)));
    }

    @GetMapping("/preheat")
    @Operation(summary = "Progress of the last preheat")
    HotStore.PreheatStatus preheatStatus() {
        return hotStore().preheatStatus();
    }

    @GetMapping("/hot-store")
    @Operation(summary = "Which Redis this instance follows now",
            description = "Standalone and Sentinel: the connected server's port, role, run id, replication id and "
                    + "replicas (from its INFO); through Sentinels also the master they name now. Cluster: the nodes "
                    + "as the client last read the topology. What could not be read is in `problem`.")
    HotStore.Server server() {
        return hotStore().server();
    }

    @PostMapping(path = "/skus/{skuId}/rebuild", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Drain and rebase one SKU: freeze it in Redis, apply its outbox to the database, reload it "
            + "from the database under a new epoch", description = "Audited with the reason; shows the hot state before "
            + "and after.")
    HotStore.Rebuilt rebuild(@PathVariable String skuId, @RequestBody ReasonRequest body, HttpServletRequest request) {
        if (body == null) {
            throw new InvalidRequestException("reason", "is required");
        }
        String reason = SkuGuards.requireReason(body.reason());
        return hotStore().rebuild(SkuId.of(skuId), reason, CurrentRequest.caller(request));
    }

    @GetMapping("/skus/{skuId}/hot")
    @Operation(summary = "A SKU's state in Redis: counters, journaled sums and sequences per bucket, epoch, mode")
    HotStore.Snapshot snapshot(@PathVariable String skuId) {
        SkuId id = SkuId.of(skuId);
        Optional<HotStore.Snapshot> snapshot = hotStore().snapshot(id);
        return snapshot.orElseThrow(() -> new ApiProblemException(ProblemCode.UNKNOWN_SKU, "SKU " + id
                + " is not loaded in the hot store", Map.of("skuId", id.value())));
    }

    private HotStore hotStore() {
        HotStore store = hotStore.getIfAvailable();
        if (store == null) {
            throw new ApiProblemException(ProblemCode.NOT_FOUND, "this tier has no hot store: set "
                    + "stockguard.ledger=redis to use Redis");
        }
        return store;
    }
}
