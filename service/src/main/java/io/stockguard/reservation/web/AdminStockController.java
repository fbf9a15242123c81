package io.stockguard.reservation.web;

import io.stockguard.platform.CurrentRequest;
import io.stockguard.platform.InvalidRequestException;
import io.stockguard.reservation.Reservations;
import io.stockguard.reservation.StockCommand;
import io.stockguard.stock.SkuId;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(path = "/api/v1/admin/skus", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Admin: stock", description = "Operator corrections of stock; audited with the reason")
class AdminStockController {

    private final Reservations reservations;

    AdminStockController(Reservations reservations) {
        this.reservations = reservations;
    }

    @PostMapping(path = "/{skuId}/adjust", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Set a SKU's total ('set') or shift it ('delta'), with a reason",
            description = "Reserved and sold stock are never touched: a total below them is refused with 409 "
                    + "INSUFFICIENT_STOCK. Idempotent by requestId when given.")
    Dtos.StockChangeResponse adjust(@PathVariable String skuId, @RequestBody Dtos.AdjustRequest body,
            HttpServletRequest request) {
        if (body == null) {
            throw new InvalidRequestException("body", "is required");
        }
        var command = new StockCommand.Adjust(SkuId.of(skuId), body.set(), body.delta(), body.reason(),
                body.requestId(), CurrentRequest.caller(request));
        return SkuController.respond(reservations.apply(command));
    }
}
