package io.stockguard.reservation.web;

import io.stockguard.platform.CurrentRequest;
import io.stockguard.reservation.OrderOutcome;
import io.stockguard.reservation.Refusal;
import io.stockguard.reservation.ReservationOutcome;
import io.stockguard.reservation.Reservations;
import io.stockguard.reservation.ReserveCommand;
import io.stockguard.stock.OrderId;
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
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(path = "/api/v1/reservations", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Reservations", description = "Hold, confirm and cancel the stock of an order; idempotent by order id")
class ReservationController {

    private final Reservations reservations;

    ReservationController(Reservations reservations) {
        this.reservations = reservations;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Reserve every line of an order, all or nothing",
            description = "201 for a new reservation, 200 with replayed=true for a retry of the same order. "
                    + "Refusals: 409 INSUFFICIENT_STOCK, 423 SKU_FROZEN, 429 THROTTLED, 404 UNKNOWN_SKU, "
                    + "409 IDEMPOTENCY_CONFLICT, 409 ORDER_CANCELLED, 409 ORDER_EXPIRED, 503 UNAVAILABLE, "
                    + "503 OUTCOME_UNKNOWN. After a 503 or a lost answer, send the same request again with the "
                    + "same orderId (never a new one): it returns the real outcome and holds the stock once.")
    @ApiResponse(responseCode = "201", description = "Reserved: every line is held until expiresAt "
            + "(or sold at once with commit=true)")
    @ApiResponse(responseCode = "200", description = "A retry of an order reserved before: the original "
            + "reservation, with replayed=true; nothing more is held")
    @ApiResponse(responseCode = "404", description = "UNKNOWN_SKU: a line names a SKU that does not exist; "
            + "nothing was held")
    @ApiResponse(responseCode = "409", description = "INSUFFICIENT_STOCK (the body names skuId, requested and "
            + "available), IDEMPOTENCY_CONFLICT, ORDER_CANCELLED or ORDER_EXPIRED: nothing was held; do not retry")
    @ApiResponse(responseCode = "423", description = "SKU_FROZEN: the SKU is not sold for now; nothing was held")
    @ApiResponse(responseCode = "429", description = "THROTTLED: wait Retry-After, then retry with the same "
            + "orderId")
    ResponseEntity<Dtos.ReservationResponse> reserve(@RequestBody Dtos.ReserveRequest body,
            HttpServletRequest request) {
        ReserveCommand command = RequestCommands.reserve(body, reservations.defaultTtl(),
                CurrentRequest.caller(request));
        return switch (reservations.reserve(command)) {
            case ReservationOutcome.Reserved reserved -> {
                var response = Dtos.ReservationResponse.of(reserved.reservation(), reserved.replayed());
                yield reserved.replayed() ? ResponseEntity.ok(response)
                        : ResponseEntity.created(URI.create("/api/v1/reservations/" + command.orderId())).body(response);
            }
            case Refusal refusal -> throw Refusals.toProblem(refusal);
        };
    }

    @GetMapping("/{orderId}")
    @Operation(summary = "A reservation's state, lines, timestamps and trace id")
    @ApiResponse(responseCode = "200", description = "The reservation (replayed is always false here)")
    @ApiResponse(responseCode = "404", description = "UNKNOWN_ORDER: no reservation for this order")
    Dtos.ReservationResponse get(@PathVariable String orderId) {
        OrderId id = orderId(orderId);
        return reservations.reservation(id).map(view -> Dtos.ReservationResponse.of(view, false))
                .orElseThrow(() -> Refusals.toProblem(new Refusal.UnknownOrder(id)));
    }

    @PostMapping("/{orderId}/confirm")
    @Operation(summary = "Turn a held reservation into a sale; a retry returns the same result")
    @ApiResponse(responseCode = "200", description = "Confirmed (replayed=true when it was confirmed before)")
    @ApiResponse(responseCode = "404", description = "UNKNOWN_ORDER: no reservation for this order")
    @ApiResponse(responseCode = "409", description = "ORDER_CANCELLED or ORDER_EXPIRED: the stock was returned; "
            + "nothing changed")
    Dtos.ReservationResponse confirm(@PathVariable String orderId, HttpServletRequest request) {
        return respond(reservations.confirm(orderId(orderId), CurrentRequest.caller(request)));
    }

    @PostMapping(path = "/{orderId}/extend", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Hold a reserved order's stock longer, once",
            description = "ttlSeconds is the whole hold, counted from when the reservation was made (as on "
                    + "reserve): {\"ttlSeconds\": 1800} makes the hold end 30 minutes after the reserve. Only a "
                    + "RESERVED order whose hold has not ended is extended, once, and never past "
                    + "stockguard.reservation.extension.hold-max. A retry of the same request, or any request for "
                    + "a hold the order already has, is answered 200 with replayed=true and changes nothing. The "
                    + "extension is journaled (one EXTEND per line).")
    @ApiResponse(responseCode = "200", description = "Extended: expiresAt is the new end and extensions counts it "
            + "(replayed=true when the order held that long already)")
    @ApiResponse(responseCode = "400", description = "INVALID_REQUEST: ttlSeconds missing, out of range or past "
            + "the configured maximum; nothing changed")
    @ApiResponse(responseCode = "404", description = "UNKNOWN_ORDER: no reservation for this order")
    @ApiResponse(responseCode = "409", description = "EXTENSION_LIMIT (extended before, or extensions are off; the "
            + "body says when the hold ends), ORDER_CONFIRMED, ORDER_CANCELLED or ORDER_EXPIRED: nothing changed")
    Dtos.ReservationResponse extend(@PathVariable String orderId, @RequestBody Dtos.ExtendRequest body,
            HttpServletRequest request) {
        return respond(reservations.extend(RequestCommands.extend(orderId, body,
                CurrentRequest.caller(request))));
    }

    @PostMapping("/{orderId}/cancel")
    @Operation(summary = "Return an order's stock (held or sold)",
            description = "Cancelling an unknown order leaves a tombstone: a reserve that arrives later gets "
                    + "409 ORDER_CANCELLED.")
    @ApiResponse(responseCode = "200", description = "Cancelled and the stock returned; replayed=true when it was "
            + "cancelled or had expired before (state says which). A tombstone has no lines.")
    Dtos.ReservationResponse cancel(@PathVariable String orderId, HttpServletRequest request) {
        return respond(reservations.cancel(orderId(orderId), CurrentRequest.caller(request)));
    }

    private static Dtos.ReservationResponse respond(OrderOutcome outcome) {
        return switch (outcome) {
            case OrderOutcome.Updated updated -> Dtos.ReservationResponse.of(updated.reservation(), updated.replayed());
            case Refusal refusal -> throw Refusals.toProblem(refusal);
        };
    }

    private static OrderId orderId(String value) {
        return OrderId.of(value);
    }

}
