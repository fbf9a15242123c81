package io.stockguard.journal.web;

import io.stockguard.journal.DeadLetter;
import io.stockguard.journal.DeadLetterReplay;
import io.stockguard.journal.DeadLetters;
import io.stockguard.platform.ApiProblemException;
import io.stockguard.platform.Caller;
import io.stockguard.platform.CurrentRequest;
import io.stockguard.platform.InvalidRequestException;
import io.stockguard.platform.ProblemCode;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(path = "/api/v1/admin/dead-letters", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Admin: dead letters", description = "Events the full tier's database writer could not apply; replay "
        + "after fixing the cause (audited)")
class DeadLetterController {

    private static final int LIMIT_MAX = 1_000;

    private final DeadLetters letters;
    private final ObjectProvider<DeadLetterReplay> replay;

    DeadLetterController(DeadLetters letters, ObjectProvider<DeadLetterReplay> replay) {
        this.letters = letters;
        this.replay = replay;
    }

    record ReasonRequest(String reason) {
    }

    @GetMapping
    @Operation(summary = "Dead letters, newest first; open ones only unless all=true (limit 1-1000, default 100)")
    List<DeadLetter> list(@RequestParam(defaultValue = "false") boolean all,
            @RequestParam(defaultValue = "100") int limit) {
        if (limit < 1 || limit > LIMIT_MAX) {
            throw new InvalidRequestException("limit", "must be between 1 and " + LIMIT_MAX);
        }
        return letters.list(!all, limit);
    }

    @PostMapping(path = "/{id}/replay", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Apply a dead letter's event once (it is a duplicate if already applied); audited")
    Map<String, Object> replay(@PathVariable long id, @RequestBody ReasonRequest body, HttpServletRequest request) {
        if (body == null || body.reason() == null || body.reason().isBlank()) {
            throw new InvalidRequestException("reason", "is required");
        }
        DeadLetterReplay replays = replay.getIfAvailable();
        if (replays == null) {
            throw new ApiProblemException(ProblemCode.NOT_FOUND, "dead letters are replayed only in the full tier "
                    + "(stockguard.journal=kafka)", Map.of());
        }
        Caller caller = CurrentRequest.caller(request);
        return switch (replays.replay(id, body.reason().strip(), caller)) {
            case DeadLetterReplay.Replayed.Applied applied -> {
                Map<String, Object> answer = new HashMap<>();
                answer.put("deadLetter", applied.letter());
                answer.put("outcome", applied.outcome());
                yield answer;
            }
            case DeadLetterReplay.Replayed.AlreadyReplayed already -> throw new ApiProblemException(
                    ProblemCode.ALREADY_REPLAYED, "dead letter " + id + " was replayed at "
                    + already.letter().replayedAt() + " by " + already.letter().replayedBy(),
                    Map.of("replayedAt", String.valueOf(already.letter().replayedAt()),
                            "replayedBy", String.valueOf(already.letter().replayedBy())));
            case DeadLetterReplay.Replayed.Unknown unknown -> throw new ApiProblemException(ProblemCode.NOT_FOUND,
                    "no dead letter " + id, Map.of());
            case DeadLetterReplay.Replayed.Failed failed -> throw new ApiProblemException(ProblemCode.UNAVAILABLE,
                    "the event still cannot be applied: " + failed.error(), Map.of("deadLetterId", id));
        };
    }
}
