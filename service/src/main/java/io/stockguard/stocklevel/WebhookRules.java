package io.stockguard.stocklevel;

import io.stockguard.stock.StockLimits;
import java.net.URI;

/**
 * What makes a webhook acceptable, whether a property or the admin API names it: each check
 * answers null, or what is wrong, for the caller to report its own way (a setting that stops the
 * start, a 400 with a field).
 */
final class WebhookRules {

    /** A shorter secret is refused: every delivery is signed with it. */
    static final int SECRET_LENGTH_MIN = 16;
    static final int SECRET_LENGTH_MAX = 200;
    static final int URL_LENGTH_MAX = 2_000;

    private WebhookRules() {
    }

    static String nameProblem(String name) {
        if (name == null || !name.matches(StockLimits.ID_PATTERN)) {
            return "must be 1-64 of A-Z a-z 0-9 . _ : -, starting with a letter or digit";
        }
        if (name.startsWith(TopicSink.PREFIX)) {
            return "may not start with " + TopicSink.PREFIX;
        }
        return null;
    }

    static String urlProblem(String url) {
        if (url == null || !(url.startsWith("https://") || url.startsWith("http://"))) {
            return "must be an http or https URL";
        }
        if (url.length() > URL_LENGTH_MAX) {
            return "is longer than " + URL_LENGTH_MAX + " characters";
        }
        try {
            if (URI.create(url).getHost() == null) {
                return "names no host";
            }
        } catch (IllegalArgumentException e) {
            return "is not a URL: " + e.getMessage();
        }
        return null;
    }

    static String secretProblem(String secret) {
        if (secret == null || secret.length() < SECRET_LENGTH_MIN || secret.length() > SECRET_LENGTH_MAX) {
            return "must be " + SECRET_LENGTH_MIN + " to " + SECRET_LENGTH_MAX
                    + " characters: every delivery is signed with it";
        }
        return null;
    }
}
