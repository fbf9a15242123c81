package io.stockguard.catalogue;

import io.stockguard.platform.ApiProblemException;
import io.stockguard.platform.Caller;
import io.stockguard.platform.InvalidRequestException;
import io.stockguard.platform.ProblemCode;
import io.stockguard.reservation.SkuCatalogue;
import io.stockguard.reservation.SkuTerms;
import io.stockguard.reservation.StockCommand;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.StockLimits;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.MediaType;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The two file formats of the bulk catalogue, read and written the same way: CSV with a header
 * line (RFC 4180, {@link CatalogueRows}), or one JSON object per line. Both carry the columns {@code sku}, {@code total} (required),
 * {@code buckets}, {@code safetyStock}, {@code lowStockThreshold} and {@code limitPerCustomer}
 * (optional: an empty value keeps the SKU's current one, or the default for a new SKU; a
 * {@code limitPerCustomer} of 0 takes the limit away). An export is a valid import.
 */
public enum CatalogueFormat {

    CSV("text/csv", "csv"),
    NDJSON("application/x-ndjson", "ndjson");

    public static final List<String> COLUMNS = List.of("sku", "total", "buckets", "safetyStock",
            "lowStockThreshold", "limitPerCustomer");
    /** A longer line is refused: a real line is well under a hundred characters. */
    public static final int LINE_LENGTH_MAX = 1_024;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final String mediaType;
    private final String extension;

    CatalogueFormat(String mediaType, String extension) {
        this.mediaType = mediaType;
        this.extension = extension;
    }

    public String mediaType() {
        return mediaType;
    }

    public String extension() {
        return extension;
    }

    /** The format of a request body; JSON lines go by several names. */
    public static CatalogueFormat of(MediaType type) {
        if (type != null) {
            String subtype = type.getSubtype().toLowerCase(java.util.Locale.ROOT);
            if (type.getType().equals("text") && subtype.equals("csv")) {
                return CSV;
            }
            if (type.getType().equals("application")
                    && List.of("x-ndjson", "ndjson", "jsonl", "x-jsonlines", "json-lines").contains(subtype)) {
                return NDJSON;
            }
        }
        throw new ApiProblemException(ProblemCode.UNSUPPORTED_MEDIA_TYPE, "send the catalogue as text/csv (with a "
                + "header line) or application/x-ndjson (one JSON object per line)");
    }

    /** The format named by an export's {@code format} parameter. */
    public static CatalogueFormat named(String name) {
        for (CatalogueFormat format : values()) {
            if (format.extension.equalsIgnoreCase(name) || format.name().equalsIgnoreCase(name)) {
                return format;
            }
        }
        throw new InvalidRequestException("format", "must be csv or ndjson");
    }

    /** The first line of an export: the CSV header; JSON lines have none. */
    public String header() {
        return this == CSV ? String.join(",", COLUMNS) + "\n" : "";
    }

    /** One SKU as a line of this format, with its line break. */
    public String line(SkuCatalogue.Entry entry) {
        if (this == CSV) {
            return CatalogueRows.CSV.format(entry.skuId().value(), entry.total(), entry.bucketCount(),
                    entry.safetyStock(), orEmpty(entry.terms().lowStockThreshold()), entry.terms().limitOrZero())
                    + "\n";
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("sku", entry.skuId().value());
        fields.put("total", entry.total());
        fields.put("buckets", entry.bucketCount());
        fields.put("safetyStock", entry.safetyStock());
        if (entry.terms().lowStockThreshold() != null) {
            fields.put("lowStockThreshold", entry.terms().lowStockThreshold());
        }
        fields.put("limitPerCustomer", entry.terms().limitOrZero());
        return JSON.writeValueAsString(fields) + "\n";
    }

    private static String orEmpty(Long value) {
        return value == null ? "" : value.toString();
    }

    /**
     * A reader of this format's rows ({@link CatalogueRows}). For CSV the first row must be the
     * header; it is checked by {@link Reader#header} before any row is read, so a file with a wrong
     * header is refused as a whole.
     */
    public Reader reader(Caller caller) {
        return new Reader(this, caller);
    }

    /** Reads the rows of one file in order; not thread-safe. */
    public static final class Reader {

        private final CatalogueFormat format;
        private final Caller caller;
        private Map<String, Integer> columns;

        private Reader(CatalogueFormat format, Caller caller) {
            this.format = format;
            this.caller = caller;
        }

        /**
         * Whether this row is the CSV header (read it and remember the columns' places); throws
         * 400 INVALID_REQUEST naming a column it does not know or one that is missing.
         */
        boolean header(CatalogueRows.Row row) {
            if (format != CSV || columns != null) {
                return false;
            }
            Map<String, Integer> found = new HashMap<>();
            List<String> names = row.cells();
            for (int i = 0; i < names.size(); i++) {
                String name = names.get(i).strip();
                if (!COLUMNS.contains(name)) {
                    throw new InvalidRequestException("header", "unknown column '" + abbreviate(name)
                            + "': the columns are " + String.join(", ", COLUMNS) + " (sku and total required)");
                }
                if (found.put(name, i) != null) {
                    throw new InvalidRequestException("header", "column '" + name + "' appears twice");
                }
            }
            for (String required : List.of("sku", "total")) {
                if (!found.containsKey(required)) {
                    throw new InvalidRequestException("header", "the header names no '" + required + "' column");
                }
            }
            columns = found;
            return true;
        }

        /** One data row (a CSV record or a JSON line), as the import takes it. */
        ImportLine line(CatalogueRows.Row row) {
            long number = row.line();
            if (row.length() > LINE_LENGTH_MAX) {
                return invalid(number, null, "line", "is longer than " + LINE_LENGTH_MAX + " characters");
            }
            Map<String, String> values = Map.of();
            try {
                values = format == CSV ? csv(row.cells()) : json(row.text());
                return new ImportLine.Valid(number, upsert(values));
            } catch (ApiProblemException e) {
                return new ImportLine.Invalid(number, new LineError(number, values.get("sku"), e.code().name(),
                        e.getMessage()));
            }
        }

        private StockCommand.Upsert upsert(Map<String, String> values) {
            String sku = values.get("sku");
            if (sku == null) {
                throw new InvalidRequestException("sku", "is required");
            }
            Long total = number(values, "total");
            if (total == null) {
                throw new InvalidRequestException("total", "is required");
            }
            Long buckets = number(values, "buckets");
            if (buckets != null && (buckets < 1 || buckets > StockLimits.BUCKETS_MAX)) {
                throw new InvalidRequestException("buckets", "must be between 1 and " + StockLimits.BUCKETS_MAX);
            }
            return new StockCommand.Upsert(SkuId.of(sku), total, buckets == null ? null : buckets.intValue(),
                    number(values, "safetyStock"), caller, SkuTerms.limit(number(values, "limitPerCustomer")),
                    number(values, "lowStockThreshold"));
        }

        private Map<String, String> csv(List<String> cells) {
            if (cells.size() > columns.size()) {
                throw new InvalidRequestException("line", "has " + cells.size() + " values; the header names "
                        + columns.size() + " columns");
            }
            Map<String, String> values = new HashMap<>();
            columns.forEach((name, index) -> {
                if (index < cells.size() && !cells.get(index).strip().isEmpty()) {
                    values.put(name, cells.get(index).strip());
                }
            });
            return values;
        }

        private static Map<String, String> json(String text) {
            JsonNode node;
            try {
                node = JSON.readTree(text);
            } catch (JacksonException e) {
                node = null;
            }
            if (node == null || !node.isObject()) {
                throw new InvalidRequestException("line", "is not a JSON object");
            }
            Map<String, String> values = new HashMap<>();
            List<String> unknown = new ArrayList<>();
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                if (!COLUMNS.contains(field.getKey())) {
                    unknown.add(field.getKey());
                } else if (!field.getValue().isNull()) {
                    values.put(field.getKey(), strictly(field.getKey(), field.getValue()));
                }
            }
            if (!unknown.isEmpty()) {
                throw new InvalidRequestException(unknown.getFirst(), "is not a column: the columns are "
                        + String.join(", ", COLUMNS));
            }
            return values;
        }

        /**
         * A value as the API reads JSON: strictly. Text where a number belongs (or a number where
         * text belongs) and fractions are refused, never coerced.
         */
        private static String strictly(String field, JsonNode value) {
            if (field.equals("sku")) {
                if (!value.isString()) {
                    throw new InvalidRequestException(field, "must be text");
                }
                return value.asString();
            }
            if (!value.isIntegralNumber()) {
                throw new InvalidRequestException(field, value.isNumber() ? "must be a whole number"
                        : "must be a number");
            }
            return value.toString();
        }

        private static ImportLine invalid(long number, String sku, String field, String message) {
            return new ImportLine.Invalid(number, new LineError(number, sku, ProblemCode.INVALID_REQUEST.name(),
                    field + ": " + message));
        }
    }

    private static Long number(Map<String, String> values, String field) {
        String text = values.get(field);
        if (text == null) {
            return null;
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new InvalidRequestException(field, "must be a whole number, not '" + abbreviate(text) + "'");
        }
    }

    private static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "…";
    }
}
