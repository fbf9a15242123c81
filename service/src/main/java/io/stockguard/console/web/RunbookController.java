package io.stockguard.console.web;

import io.stockguard.platform.ApiProblemException;
import io.stockguard.platform.ProblemCode;
import java.util.List;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

/** What to do when: the situations of the post-mortem, each with the console's own steps. */
@Controller
@ConsolePage
class RunbookController {

    record Runbook(String slug, String title, String summary) {
    }

    static final List<Runbook> RUNBOOKS = List.of(
            new Runbook("redis-down", "Redis down or failing over",
                    "The database serves reservations by itself; nothing oversells. Wait, watch, rebuild stragglers."),
            new Runbook("drift-detected", "Drift detected: Redis and the database disagree",
                    "Freeze first, then find out. The database's journal is the truth; heal Redis from it."),
            new Runbook("backlog-over-threshold", "Backlog over threshold",
                    "Changes are piling up before the database. Degrade on purpose rather than hold on."),
            new Runbook("preheat-failing", "Preheat failing",
                    "Do not retry in a loop. Unloaded SKUs load on first use; fix pacing, then preheat again."),
            new Runbook("dead-letters", "Dead letters",
                    "An event the database could not apply was set aside. Fix the cause, then replay it once."));

    @GetMapping("/console/runbooks")
    String index(Model model) {
        model.addAttribute("runbooks", RUNBOOKS);
        return "console/runbooks";
    }

    @GetMapping("/console/runbooks/{slug}")
    String runbook(@PathVariable String slug, Model model) {
        Runbook runbook = RUNBOOKS.stream().filter(r -> r.slug().equals(slug)).findFirst()
                .orElseThrow(() -> new ApiProblemException(ProblemCode.NOT_FOUND, "no runbook '" + slug + "'"));
        model.addAttribute("runbook", runbook);
        model.addAttribute("runbooks", RUNBOOKS);
        // The page takes the runbook's steps from console/runbooks/<slug>.html; the slug comes from the
        // fixed list above, never from the request, so no other template can be named.
        return "console/runbook";
    }
}
