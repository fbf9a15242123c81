package io.stockguard.reservation.web;

import io.stockguard.platform.CurrentRequest;
import io.stockguard.reservation.Refusal;
import io.stockguard.reservation.Reservations;
import io.stockguard.reservation.SkuTerms;
import io.stockguard.reservation.StockChangeOutcome;
import io.stockguard.reservation.StockCommand;
import io.stockguard.stock.SkuId;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(path = "/api/v1/skus", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Stock", description = "Create SKUs, set and restock their totals, read their stock")
class SkuController {

    private final Reservations reservations;

    SkuController(Reservations reservations) {
        this.reservations = reservations;
    }

    @PutMapping(path = "/{skuId}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Create a SKU or set its total",
            description = "201 when created, 200 when the total was set. The bucket count (default 8) is fixed once "
                    + "the SKU exists. Lowering the total below reserved + sold is refused with 409 "
                    + "INSUFFICIENT_STOCK. limitPerCustomer (units one customer may hold and have bought; 0 "
                    + "takes the limit away) and lowStockThreshold (available units below which LOW_STOCK is "
                    + "reported; the safety stock when never set) are kept when left out.")
    ResponseEntity<Dtos.StockChangeResponse> put(@PathVariable String skuId, @RequestBody Dtos.SkuRequest body,
            HttpServletRequest request) {
        if (body == null) {
            throw new io.stockguard.platform.InvalidRequestException("body", "is required");
        }
        SkuId id = SkuId.of(skuId);
        var command = new StockCommand.Upsert(id, RequestCommands.required(body.total(), "total"),
                RequestCommands.bucketCount(body.buckets()), body.safetyStock(), CurrentRequest.caller(request),
                SkuTerms.limit(body.limitPerCustomer()), body.lowStockThreshold());
        Dtos.StockChangeResponse response = respond(reservations.apply(command));
        return response.before() == null
                ? ResponseEntity.created(URI.create("/api/v1/skus/" + id)).body(response)
                : ResponseEntity.ok(response);
    }

    @GetMapping("/{skuId}")
    @Operation(summary = "Stock of a SKU: total, available, reserved, sold, mode and buckets")
    @ApiResponse(responseCode = "200", description = "The SKU's stock")
    @ApiResponse(responseCode = "404", description = "UNKNOWN_SKU: no SKU with this id")
    Dtos.StockResponse get(@PathVariable String skuId) {
        SkuId id = SkuId.of(skuId);
        return reservations.stock(id).map(Dtos.StockResponse::of)
                .orElseThrow(() -> Refusals.toProblem(new Refusal.UnknownSku(id)));
    }

    @GetMapping("/{skuId}/availability")
    @Operation(summary = "What a product page shows: available units, mode and whether the SKU sells, at most "
            + "stockguard.reservation.availability-max-age old (50 ms unless set)",
            description = "Queries of a SKU share store reads for that long, so a sale's second wave of page "
                    + "refreshes does not load the store. A change acknowledged by this instance shows at once; "
                    + "one made through another instance within maxAgeMillis. For the live, full stock, read "
                    + "GET /api/v1/skus/{skuId}.")
    @ApiResponse(responseCode = "200", description = "The SKU's availability")
    @ApiResponse(responseCode = "404", description = "UNKNOWN_SKU: no SKU with this id")
    Dtos.AvailabilityResponse availability(@PathVariable String skuId) {
        SkuId id = SkuId.of(skuId);
        return reservations.availability(id).map(view -> Dtos.AvailabilityResponse.of(view,
                        reservations.availabilityMaxAge()))
                .orElseThrow(() -> Refusals.toProblem(new Refusal.UnknownSku(id)));
    }

    @PostMapping(path = "/{skuId}/restock", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Add received goods to a SKU's total; idempotent by requestId when given")
    Dtos.StockChangeResponse restock(@PathVariable String skuId, @RequestBody Dtos.RestockRequest body,
            HttpServletRequest request) {
        if (body == null) {
            throw new io.stockguard.platform.InvalidRequestException("body", "is required");
        }
        var command = new StockCommand.Restock(SkuId.of(skuId), RequestCommands.required(body.qty(), "qty"),
                body.requestId(), CurrentRequest.caller(request));
        return respond(reservations.apply(command));
    }

    static Dtos.StockChangeResponse respond(StockChangeOutcome outcome) {
        return switch (outcome) {
            case StockChangeOutcome.Changed changed -> new Dtos.StockChangeResponse(
                    changed.before() == null ? null : Dtos.StockResponse.of(changed.before()),
                    Dtos.StockResponse.of(changed.after()), changed.replayed());
            case Refusal refusal -> throw Refusals.toProblem(refusal);
        };
    }
}
