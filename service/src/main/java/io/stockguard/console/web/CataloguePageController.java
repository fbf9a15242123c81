package io.stockguard.console.web;

import io.stockguard.catalogue.CatalogueImports;
import io.stockguard.catalogue.ImportJob;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The bulk catalogue as people follow it: the newest imports with their counts, one import's
 * failed lines, and the export. Imports themselves are files sent by scripts or
 * {@code ./stockguard import}; the page is where someone on duty checks what they did.
 */
@Controller
@ConsolePage
@RequestMapping("/console/catalogue")
class CataloguePageController {

    private static final int JOBS_SHOWN = 20;

    private final CatalogueImports imports;

    CataloguePageController(CatalogueImports imports) {
        this.imports = imports;
    }

    @GetMapping
    String page(@RequestParam(required = false) String job, Model model) {
        List<ImportJob> jobs = imports.recent(JOBS_SHOWN);
        Optional<ImportJob> selected = job == null || job.isBlank() ? jobs.stream().findFirst()
                : imports.job(job.strip());
        model.addAttribute("jobs", jobs);
        model.addAttribute("selected", selected.orElse(null));
        model.addAttribute("unknownJob", job != null && !job.isBlank() && selected.isEmpty() ? job.strip() : null);
        return "console/catalogue";
    }
}
