package io.stockguard.stocklevel.web;

import io.stockguard.platform.Caller;
import io.stockguard.platform.CurrentRequest;
import io.stockguard.platform.InvalidRequestException;
import io.stockguard.stock.SkuId;
import io.stockguard.stocklevel.StockLevelProperties;
import io.stockguard.stocklevel.StockLevelStore;
import io.stockguard.stocklevel.Subscription;
import io.stockguard.stocklevel.Subscriptions;
import jakarta.servlet.http.HttpServletRequest;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
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
    private final Subscriptions subscriptions;

    StockLevelController(StockLevelStore store, StockLevelProperties properties, Subscriptions subscriptions) {
        this.store = store;
        this.properties = properties;
        this.subscriptions = subscriptions;
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

    /**
     * A webhook as the list shows it.
     *
     * @param source {@code property} (configured in the settings) or {@code api} (subscribed here)
     */
    record WebhookResponse(String name, String url, String source, Instant createdAt, String createdBy) {
    }

    @GetMapping("/webhooks")
    @Operation(summary = "Every webhook, configured or subscribed: name, where it comes from, and the URL's "
            + "scheme, host and port (never the path, which often carries a token, nor the secret)")
    List<WebhookResponse> webhooks() {
        List<WebhookResponse> all = new ArrayList<>();
        properties.webhooks().forEach(w -> all.add(new WebhookResponse(w.name(), masked(w.url()), "property", null,
                null)));
        subscriptions.current().forEach(s -> all.add(new WebhookResponse(s.name(), masked(s.url()), "api",
                s.createdAt(), s.createdBy())));
        return all;
    }

    /** A subscription request: {@code secret} may be left out, and one is made. */
    record SubscribeRequest(String name, String url, String secret) {
    }

    /** A new subscription, with its secret: the only answer that shows it. */
    record SubscribedResponse(String name, String url, String secret, Instant createdAt, String createdBy) {
    }

    @PostMapping(path = "/webhooks", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Subscribe a webhook to stock-level events (admins): from now on every event is "
            + "delivered to it, signed with its secret. Leave the secret out and one is made; the answer shows it "
            + "this once. 409 NAME_TAKEN for a name in use, by property or by the API.")
    ResponseEntity<SubscribedResponse> subscribe(@RequestBody SubscribeRequest body, HttpServletRequest request) {
        if (body == null) {
            throw new InvalidRequestException("body", "is required");
        }
        Subscription made = subscriptions.subscribe(body.name(), body.url(), body.secret(), caller(request));
        return ResponseEntity.created(URI.create("/api/v1/admin/stock-levels/webhooks/" + made.name()))
                .body(new SubscribedResponse(made.name(), made.url(), made.secret(), made.createdAt(),
                        made.createdBy()));
    }

    @DeleteMapping("/webhooks/{name}")
    @Operation(summary = "Remove a webhook subscribed by the API (admins): it gets no more events, and its "
            + "pending deliveries are given up. 409 CONFIGURED_BY_PROPERTY for one configured in the settings.")
    ResponseEntity<Void> unsubscribe(@PathVariable String name, HttpServletRequest request) {
        subscriptions.unsubscribe(name, caller(request));
        return ResponseEntity.noContent().build();
    }

    private static Caller caller(HttpServletRequest request) {
        return new Caller(CurrentRequest.actor(), CurrentRequest.traceId(request));
    }

    private static String masked(String url) {
        URI uri = URI.create(url);
        return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort()) + "/***";
    }
}
