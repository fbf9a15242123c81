package io.stockguard.platform;

import org.springframework.http.HttpStatus;

/**
 * The stable error codes of the API. Clients switch on {@code code}, never on the title or detail,
 * so a code is never renamed once published.
 */
public enum ProblemCode {
    INSUFFICIENT_STOCK(HttpStatus.CONFLICT, "Insufficient stock",
            "The SKU as a whole holds less available stock than the request asks for. The body names the SKU,"
                    + " the quantity requested and the quantity available. Nothing was held."),
    SKU_FROZEN(HttpStatus.LOCKED, "SKU frozen",
            "An operator or the reconciliation probe froze the SKU: it is temporarily not sold. Queries, "
                    + "cancels and restocks still work. Show the customer 'temporarily out of stock'."),
    THROTTLED(HttpStatus.TOO_MANY_REQUESTS, "Throttled",
            "The SKU sells under a rate limit right now (set by the reconciliation probe or an operator), or the "
                    + "service admits fewer reservations while its journal catches up. Retry after the number of "
                    + "seconds in Retry-After."),
    THROTTLE_UNSUPPORTED(HttpStatus.CONFLICT, "Throttle not available in this tier",
            "The database ledger (embedded / database tier) does not enforce a reservation rate, so a throttle "
                    + "would be a promise not kept. Freeze the SKU instead, or run the standard or full tier."),
    HEAL_UNSUPPORTED(HttpStatus.CONFLICT, "Heal not available in this tier",
            "The database tier has no hot store to rebase: the database is the only ledger. Correct its counters "
                    + "with an adjust, with a reason."),
    UNKNOWN_SKU(HttpStatus.NOT_FOUND, "Unknown SKU",
            "No SKU with this id exists. Create it with PUT /api/v1/skus/{skuId}."),
    UNKNOWN_ORDER(HttpStatus.NOT_FOUND, "Unknown order",
            "No reservation exists for this order id."),
    IDEMPOTENCY_CONFLICT(HttpStatus.CONFLICT, "Idempotency conflict",
            "The order id (or request id) was used before for a request with different contents. A retry must"
                    + " repeat the original request exactly; a different request needs a new id."),
    ORDER_CANCELLED(HttpStatus.CONFLICT, "Order cancelled",
            "The order was cancelled (possibly before its reservation arrived). It is not reserved again."),
    ORDER_EXPIRED(HttpStatus.CONFLICT, "Order expired",
            "The reservation outlived its TTL and its stock was returned. Reserve again under a new order id."),
    LIMIT_EXCEEDED(HttpStatus.CONFLICT, "Per-customer limit reached",
            "The SKU sells a limited number of units to one customer, counting what the customer holds "
                    + "(reserved, not yet paid) and has bought. The body says the limit and what the customer holds; "
                    + "a cancelled or expired order of the customer frees its units."),
    ORDER_CONFIRMED(HttpStatus.CONFLICT, "Order confirmed",
            "The order is sold: it holds nothing that could expire, so its hold cannot be extended."),
    EXTENSION_LIMIT(HttpStatus.CONFLICT, "Extension limit reached",
            "The order's hold was extended before, and an order's hold is extended once "
                    + "(or extensions are switched off: stockguard.reservation.extension.enabled). The body says "
                    + "when the hold ends. Confirm or cancel the order before then."),
    UNKNOWN_WEBHOOK(HttpStatus.NOT_FOUND, "Unknown webhook",
            "No webhook subscription of this name was made by the admin API (GET "
                    + "/api/v1/admin/stock-levels/webhooks lists them)."),
    CONFIGURED_BY_PROPERTY(HttpStatus.CONFLICT, "Configured by property",
            "The webhook is configured in the service's settings (stockguard.stock-levels.webhooks); it is "
                    + "changed there, not by the API."),
    UNKNOWN_CHANNEL(HttpStatus.NOT_FOUND, "Unknown alert channel",
            "No alert channel has this name in stockguard.alerting.channels (or none is configured, or alerting is "
                    + "switched off). The body lists the configured channels."),
    IMPORT_RUNNING(HttpStatus.CONFLICT, "Import running",
            "This instance is running another catalogue import. Poll that job (its id is in the problem) and send "
                    + "this one when it is done."),
    ALREADY_REPLAYED(HttpStatus.CONFLICT, "Already replayed",
            "This dead letter was replayed before; an event is applied once. The body says when and by whom."),
    INVALID_REQUEST(HttpStatus.BAD_REQUEST, "Invalid request",
            "The body or a parameter breaks a documented rule; the errors field lists every field and rule. "
                    + "Nothing changed."),
    UNAUTHENTICATED(HttpStatus.UNAUTHORIZED, "Authentication required",
            "Send a valid key as 'Authorization: Bearer <key>'."),
    FORBIDDEN(HttpStatus.FORBIDDEN, "Forbidden",
            "This caller may not use this endpoint: order-service keys cannot use /api/v1/admin, viewers change "
                    + "nothing, only admins adjust stock and manage people and keys; a change made with a console "
                    + "session must carry its CSRF token."),
    NAME_TAKEN(HttpStatus.CONFLICT, "Name taken",
            "A person or key with this name exists (in the console or in the configuration). Choose another name."),
    NOT_FOUND(HttpStatus.NOT_FOUND, "Not found",
            "No endpoint at this path."),
    METHOD_NOT_ALLOWED(HttpStatus.METHOD_NOT_ALLOWED, "Method not allowed",
            "This endpoint does not accept this HTTP method."),
    NOT_ACCEPTABLE(HttpStatus.NOT_ACCEPTABLE, "Not acceptable",
            "The service answers in JSON only."),
    UNSUPPORTED_MEDIA_TYPE(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Unsupported media type",
            "Send bodies as application/json."),
    PAYLOAD_TOO_LARGE(HttpStatus.CONTENT_TOO_LARGE, "Payload too large",
            "Request bodies are limited to 64 KiB; a catalogue import to stockguard.catalogue.import-size-max."),
    /** The change was certainly not applied; retrying with the same order id is safe. */
    UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE, "Temporarily unavailable",
            "A store the service needs is unavailable. The change was certainly not applied; retrying with "
                    + "the same id is safe. Retry-After gives a first delay."),
    /**
     * The store failed while committing, so the change may or may not have been applied. Retrying
     * with the same order id is safe and returns the real outcome.
     */
    OUTCOME_UNKNOWN(HttpStatus.SERVICE_UNAVAILABLE, "Outcome unknown",
            "A store failed while committing, so the change may or may not have been applied. Retry with the "
                    + "same id: the retry returns the real outcome and never applies the change twice."),
    INTERNAL(HttpStatus.INTERNAL_SERVER_ERROR, "Internal error",
            "An unexpected error. Nothing about it is echoed; quote the trace id when reporting it.");

    private final HttpStatus status;
    private final String title;
    private final String description;

    ProblemCode(HttpStatus status, String title, String description) {
        this.status = status;
        this.title = title;
        this.description = description;
    }

    /** What the code means and what the caller should do, served at the problem's type URI. */
    public String description() {
        return description;
    }

    public HttpStatus status() {
        return status;
    }

    public String title() {
        return title;
    }
}
