package io.stockguard.console.web;

import io.stockguard.console.ConsoleViews;
import io.stockguard.console.OperatorConsole;
import java.util.HashMap;
import java.util.Map;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

@Controller
@ConsolePage
class OverviewController {

    private final OperatorConsole console;

    OverviewController(OperatorConsole console) {
        this.console = console;
    }

    @GetMapping({"/console", "/console/"})
    String overview(@RequestParam(required = false) String filter,
            @RequestParam(defaultValue = "false") boolean soldOut, Model model) {
        if (filter != null && filter.length() > 64) {
            filter = filter.substring(0, 64);
        }
        ConsoleViews.Overview overview = console.overview(filter, soldOut);
        model.addAttribute("overview", overview);
        model.addAttribute("sparklines", sparklines(overview));
        return "console/overview";
    }

    /** Each row's sparkline points by SKU id; rows with fewer than two readings have none. */
    private Map<String, String> sparklines(ConsoleViews.Overview overview) {
        Map<String, String> lines = new HashMap<>();
        for (ConsoleViews.OverviewRow row : overview.rows()) {
            if (row.driftHistory().size() > 1) {
                lines.put(row.sku().skuId(), DriftPlot.sparkline(row.driftHistory(), console.properties().drift()));
            }
        }
        return lines;
    }
}
