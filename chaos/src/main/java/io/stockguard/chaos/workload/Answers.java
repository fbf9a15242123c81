package io.stockguard.chaos.workload;

import io.stockguard.chaos.history.Op;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/** How an answer is recorded: what it proves (ok, fail, info) and what it said. */
final class Answers {

    private Answers() {
    }

    /**
     * 2xx: it happened. 4xx: it was refused. 503 UNAVAILABLE: the API promises it did not happen
     * (recorded as a refusal, so that the checker holds the service to it). Anything else (no
     * answer, OUTCOME_UNKNOWN, another 5xx) leaves it open.
     */
    static Op.Type type(Api.Answer answer) {
        if (answer.ok()) {
            return Op.Type.OK;
        }
        if (answer.status() >= 400 && answer.status() < 500) {
            return Op.Type.FAIL;
        }
        if (answer.status() == 503 && "UNAVAILABLE".equals(answer.code())) {
            return Op.Type.FAIL;
        }
        return Op.Type.INFO;
    }

    /** No answer or a 5xx: the API says to retry with the same id. */
    static boolean retryable(Api.Answer answer) {
        return answer.status() == 0 || answer.status() >= 500;
    }

    static Optional<Duration> retryAfter(Api.Answer answer) {
        try {
            return answer.retryAfter() == null ? Optional.empty()
                    : Optional.of(Duration.ofSeconds(Long.parseLong(answer.retryAfter().trim())));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** The completion with what the answer said. */
    static Op describe(Op completion, Api.Answer answer) {
        String detail = answer.error() != null ? answer.error() : answer.ok() ? null : answer.text("detail");
        if (!answer.ok()) {
            return completion.withAnswer(answer.status(), answer.code(), null, null, null, null, null, detail);
        }
        JsonNode body = answer.body();
        return switch (completion.f()) {
            case "reserve", "confirm", "cancel", "extend", "read-order" -> completion.withAnswer(answer.status(), null,
                    body.has("replayed") ? body.get("replayed").asBoolean() : null, answer.text("state"),
                    lines(body.get("lines")), null, null, null);
            case "read-sku" -> completion.withAnswer(answer.status(), null, null, null, null, stock(body), null, null);
            case "restock", "adjust" -> completion.withAnswer(answer.status(), null,
                    body.has("replayed") ? body.get("replayed").asBoolean() : null, null, null,
                    body.has("after") ? stock(body.get("after")) : null, null, null);
            default -> completion.withAnswer(answer.status(), null, null, null, null, null, null, null);
        };
    }

    static List<Op.Line> lines(JsonNode lines) {
        List<Op.Line> read = new ArrayList<>();
        if (lines != null) {
            lines.forEach(line -> read.add(new Op.Line(line.get("skuId").asString(), line.get("qty").asInt())));
        }
        return read;
    }

    static Op.Stock stock(JsonNode body) {
        List<long[]> buckets = new ArrayList<>();
        if (body.get("buckets") != null) {
            body.get("buckets").forEach(b -> buckets.add(new long[] {b.get("available").asLong(),
                    b.get("reserved").asLong(), b.get("sold").asLong()}));
        }
        return new Op.Stock(body.get("total").asLong(), body.get("available").asLong(), body.get("reserved").asLong(),
                body.get("sold").asLong(), body.get("mode").asString(), buckets);
    }
}
