package io.stockguard.alerting.webhook;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** The HMAC-SHA256 signatures Feishu and DingTalk document for their custom bots. */
final class Signatures {

    private Signatures() {
    }

    /** Feishu: the key is {@code timestamp + "\n" + secret} (seconds), the signed data is empty. */
    static String feishu(long epochSeconds, String secret) {
        return hmacBase64(epochSeconds + "\n" + secret, "");
    }

    /**
     * DingTalk: the key is the secret, the signed data {@code timestamp + "\n" + secret}
     * (milliseconds); URL-encoding is left to the caller.
     */
    static String dingTalk(long epochMillis, String secret) {
        return hmacBase64(secret, epochMillis + "\n" + secret);
    }

    private static String hmacBase64(String key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return Base64.getEncoder().encodeToString(mac.doFinal(data.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
