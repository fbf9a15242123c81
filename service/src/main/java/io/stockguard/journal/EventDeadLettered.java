package io.stockguard.journal;

/** An event could not be applied to the database and was set aside as a dead letter. */
public record EventDeadLettered(String source, String eventId, String skuId, String error) {
}
