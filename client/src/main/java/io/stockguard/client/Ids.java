package io.stockguard.client;

import java.util.regex.Pattern;

/**
 * The service's rule for order and SKU ids, checked before anything is sent: an id is also a path
 * segment of the request, so one that broke the rule could address another resource.
 */
final class Ids {

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,63}");

    private Ids() {
    }

    static String require(String field, String value) {
        if (value == null || !ID.matcher(value).matches()) {
            throw new IllegalArgumentException(field + " must be 1-64 characters of A-Z a-z 0-9 . _ : -, "
                    + "starting with a letter or digit; was " + (value == null ? "null" : "'" + value + "'"));
        }
        return value;
    }
}
