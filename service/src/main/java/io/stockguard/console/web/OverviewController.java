package io.stockguard.console.web;

import io.stockguard.console.OperatorConsole;
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
    String overview(@RequestParam(required = false) String filter, Model model) {
        if (filter != null && filter.length() > 64) {
            filter = filter.substring(0, 64);
        }
        model.addAttribute("overview", console.overview(filter));
        return "console/overview";
    }
}
