package io.stockguard.catalogue;

/**
 * Why one line of an import was not applied, as the job's report lists it.
 *
 * @param line the line's number in the file
 * @param sku the SKU the line names, when it could be read
 * @param code the problem code the same change would get from the API ({@code INVALID_REQUEST},
 *     {@code INSUFFICIENT_STOCK}, {@code UNAVAILABLE}, …)
 * @param message what is wrong, naming the field
 */
public record LineError(long line, String sku, String code, String message) {
}
