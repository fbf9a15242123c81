package io.stockguard.stocklevel.web;

import io.stockguard.platform.InvalidRequestException;
import io.stockguard.stock.SkuId;
import io.stockguard.stocklevel.StockLevelProperties;
import io.stockguard.stocklevel.StockLevelStore;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(path = "/api/v1/admin/stock-levels", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Admin: stock levels", description = "The SOLD_OUT, BACK_IN_STOCK and LOW_STOCK events sent to "
        + "webhooks, and how their deliveries stand")
class StockLevelController {

    static final int LIMIT_MAX = 500;

    private final StockLevelStore store;
    private final StockLevelProperties properties;

    StockLevelController(StockLevelStore store, StockLevelProperties properties) {
        this.store = store;
        this.properties = properties;
    }

    @GetMapping("/events")
    @Operation(summary = "Events, newest first, of one SKU or all (limit 1-500, default 50), each with its "
            + "deliveries: delivered, pending (retried with backoff) and given up")
    List<EventResponse> events(@RequestParam(required = false) String sku,
            @RequestParam(defaultValue = "50") int limit) {
        if (limit < 1 || limit > LIMIT_MAX) {
            throw new InvalidRequestException("limit", "must be between 1 and " + LIMIT_MAX);
        }
        return store.recent(sku == null || sku.isBlank() ? null : SkuId.of(sku.strip()), limit).stream()
                .map(EventResponse::of).toList();
    }

    /** An event as its subscribers received it, with how its deliveries stand. */
    record EventResponse(String eventId, String type, String skuId, long available, long total,
            Instant occurredAt, String traceId, int delivered, int pending, int gaveUp) {

        static EventResponse of(StockLevelStore.Recorded recorded) {
            var event = recorded.event();
            return new EventResponse(event.eventId(), event.change().name(), event.skuId().value(), event.available(),
                    event.total(), event.occurredAt(), event.traceId(), recorded.delivered(), recorded.pending(),
                    recorded.gaveUp());
        }
    }

    @GetMapping("/webhooks")
    @Operation(summary = "The configured webhooks: name and the URL's scheme, host and port (never the path, "
            + "which often carries a token, nor the secret)")
    List<Map<String, String>> webhooks() {
        return properties.webhooks().stream().map(w -> Map.of("name", w.name(), "url", masked(w.url()))).toList();
    }

    private static String masked(String url) {
        URI uri = URI.create(url);
        return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort()) + "/***";
    }
}
