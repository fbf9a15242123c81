package io.stockguard.console.web;

import io.stockguard.console.OperatorConsole;
import io.stockguard.guard.SkuGuards;
import io.stockguard.journal.DeadLetter;
import io.stockguard.journal.DeadLetterReplay;
import io.stockguard.journal.DeadLetters;
import io.stockguard.platform.ApiProblemException;
import io.stockguard.platform.ProblemCode;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * Events the full tier's database writer set aside, and their replay in two steps: the button on
 * the list, then the confirmation with the reason. A replay that comes to nothing (replayed
 * already, gone, failing again) is an outcome shown on the list, not an error page: with two
 * people on duty, one of them is often second.
 */
@Controller
@ConsolePage
@RequestMapping("/console/dead-letters")
class DeadLetterPageController {

    static final String LIST_URL = "/console/dead-letters";

    private final ObjectProvider<DeadLetters> letters;
    private final ObjectProvider<DeadLetterReplay> replay;
    private final OperatorConsole console;

    DeadLetterPageController(ObjectProvider<DeadLetters> letters, ObjectProvider<DeadLetterReplay> replay,
            OperatorConsole console) {
        this.letters = letters;
        this.replay = replay;
        this.console = console;
    }

    /** What a replay came to when it did nothing, shown above the list with its stable code. */
    record Problem(String code, String message) implements java.io.Serializable {
    }

    @GetMapping
    String list(Model model) {
        boolean fullTier = fullTier();
        List<DeadLetter> shown = fullTier ? letters.getObject().list(false, console.properties().deadLettersShown())
                : List.of();
        model.addAttribute("fullTier", fullTier);
        model.addAttribute("letters", shown);
        model.addAttribute("openCount", fullTier ? letters.getObject().countOpen() : 0);
        model.addAttribute("shownMax", console.properties().deadLettersShown());
        return "console/dead-letters";
    }

    @GetMapping("/{id}/replay")
    String confirm(@PathVariable long id, Model model, RedirectAttributes flash) {
        requireFullTier();
        DeadLetter letter = letters.getObject().find(id).orElse(null);
        if (letter == null || !letter.open()) {
            flash.addFlashAttribute("problem", letter == null ? unknown(id) : alreadyReplayed(letter));
            return "redirect:" + LIST_URL;
        }
        model.addAttribute("confirm", new ConfirmPage("Replay dead letter " + id, "As soon as you confirm, its event "
                + (letter.eventId() == null ? "" : letter.eventId() + " ") + "of " + letter.skuId() + " is applied to "
                + "the database once, as the writer would have (an event the database already has changes "
                + "nothing). It failed with: " + letter.error() + ". Fix that first, or it fails again and stays "
                + "open.", LIST_URL + "/" + id + "/replay", "Replay dead letter " + id + " now", "", LIST_URL, false,
                LIST_URL));
        return "console/confirm";
    }

    @PostMapping("/{id}/replay")
    String replay(@PathVariable long id, @RequestParam(required = false) String reason, HttpServletRequest request,
            RedirectAttributes flash) {
        DeadLetterReplay replays = requireFullTier();
        switch (replays.replay(id, SkuGuards.requireReason(reason), ConsoleModel.caller(request))) {
            case DeadLetterReplay.Replayed.Applied applied -> flash.addFlashAttribute("notice", "Dead letter " + id
                    + " replayed: the database applied it (" + applied.outcome() + ").");
            case DeadLetterReplay.Replayed.AlreadyReplayed already ->
                    flash.addFlashAttribute("problem", alreadyReplayed(already.letter()));
            case DeadLetterReplay.Replayed.Unknown unknown -> flash.addFlashAttribute("problem", unknown(id));
            case DeadLetterReplay.Replayed.Failed failed -> flash.addFlashAttribute("problem", new Problem(
                    ProblemCode.UNAVAILABLE.name(), "Dead letter " + id + " still cannot be applied: " + failed.error()
                    + ". It stays open; fix the cause and replay it again."));
        }
        return "redirect:" + LIST_URL;
    }

    private boolean fullTier() {
        return replay.getIfAvailable() != null && letters.getIfAvailable() != null;
    }

    private DeadLetterReplay requireFullTier() {
        if (!fullTier()) {
            throw new ApiProblemException(ProblemCode.NOT_FOUND, ConsoleModel.NO_KAFKA_REASON);
        }
        return replay.getObject();
    }

    private static Problem alreadyReplayed(DeadLetter letter) {
        return new Problem(ProblemCode.ALREADY_REPLAYED.name(), "Dead letter " + letter.id() + " was already "
                + "replayed by " + letter.replayedBy() + " at " + ConsoleModel.TIME.format(letter.replayedAt())
                + ": nothing was done now.");
    }

    private static Problem unknown(long id) {
        return new Problem(ProblemCode.NOT_FOUND.name(), "There is no dead letter " + id + ": nothing was done.");
    }
}
