package io.stockguard.stock;

import io.stockguard.platform.InvalidRequestException;
import java.util.regex.Pattern;

final class Identifiers {

    private static final Pattern ID = Pattern.compile(StockLimits.ID_PATTERN);

    private Identifiers() {
    }

    static String require(String field, String value) {
        if (value == null || value.isEmpty()) {
            throw new InvalidRequestException(field, "is required");
        }
        if (value.length() > StockLimits.ID_LENGTH_MAX) {
            throw new InvalidRequestException(field, "is longer than " + StockLimits.ID_LENGTH_MAX + " characters");
        }
        if (!ID.matcher(value).matches()) {
            throw new InvalidRequestException(field,
                    "may contain only letters, digits and . _ : - and must start with a letter or digit");
        }
        return value;
    }
}
