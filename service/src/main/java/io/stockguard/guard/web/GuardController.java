package io.stockguard.guard.web;

import io.stockguard.guard.SkuGuards;
import io.stockguard.guard.SkuModeChanged;
import io.stockguard.platform.ApiProblemException;
import io.stockguard.platform.CurrentRequest;
import io.stockguard.platform.InvalidRequestException;
import io.stockguard.stock.SkuId;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import java.util.Optional;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(path = "/api/v1/admin/skus", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Admin: guards", description = "Freeze and unfreeze selling of a SKU; audited with the reason")
class GuardController {

    private final SkuGuards guards;

    GuardController(SkuGuards guards) {
        this.guards = guards;
    }

    record ReasonRequest(String reason) {
    }

    record ModeResponse(String skuId, String before, String after, String reason, String changedBy, Instant at) {
        static ModeResponse of(SkuModeChanged change) {
            return new ModeResponse(change.skuId().value(), change.before().name(), change.after().name(),
                    change.reason(), change.actor(), change.at());
        }
    }

    @PostMapping(path = "/{skuId}/freeze", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Stop selling a SKU",
            description = "When this returns, every instance refuses new reservations of the SKU with 423 SKU_FROZEN. "
                    + "Queries, cancels and restocks still work.")
    ModeResponse freeze(@PathVariable String skuId, @RequestBody ReasonRequest body, HttpServletRequest request) {
        SkuId id = SkuId.of(skuId);
        return respond(id, guards.freeze(id, reason(body), CurrentRequest.actor(), CurrentRequest.traceId(request)));
    }

    @PostMapping(path = "/{skuId}/unfreeze", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Resume selling a frozen SKU")
    ModeResponse unfreeze(@PathVariable String skuId, @RequestBody ReasonRequest body, HttpServletRequest request) {
        SkuId id = SkuId.of(skuId);
        return respond(id, guards.unfreeze(id, reason(body), CurrentRequest.actor(), CurrentRequest.traceId(request)));
    }

    record ThrottleRequest(Integer ratePerSecond, String reason) {
    }

    @PostMapping(path = "/{skuId}/throttle", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Sell a SKU under a cluster-wide rate limit",
            description = "Every instance together accepts at most ratePerSecond new reservations of the SKU per "
                    + "second; the excess gets 429 THROTTLED with Retry-After. Standard and full tier only (409 "
                    + "THROTTLE_UNSUPPORTED in the database tier). Unthrottle with /unfreeze.")
    ModeResponse throttle(@PathVariable String skuId, @RequestBody ThrottleRequest body, HttpServletRequest request) {
        SkuId id = SkuId.of(skuId);
        if (body == null || body.ratePerSecond() == null) {
            throw new InvalidRequestException("ratePerSecond", "is required");
        }
        return respond(id, guards.throttle(id, body.ratePerSecond(), body.reason(), CurrentRequest.actor(),
                CurrentRequest.traceId(request)));
    }

    private static String reason(ReasonRequest body) {
        if (body == null) {
            throw new InvalidRequestException("reason", "is required");
        }
        return body.reason();
    }

    private static ModeResponse respond(SkuId skuId, Optional<SkuModeChanged> change) {
        return change.map(ModeResponse::of).orElseThrow(() -> ApiProblemException.unknownSku(skuId.value()));
    }
}
