package io.stockguard.console.web;

import io.stockguard.platform.ApiProblemException;
import io.stockguard.platform.ProblemCode;
import io.stockguard.hotstore.HotStore;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/** Preheat from the overview in two steps: the button, then the confirmation. Progress shows on the overview. */
@Controller
@ConsolePage
@RequestMapping("/console/preheat")
class PreheatController {

    private final ObjectProvider<HotStore> hotStore;

    PreheatController(ObjectProvider<HotStore> hotStore) {
        this.hotStore = hotStore;
    }

    @GetMapping
    String confirm(Model model) {
        requireHotStore();
        model.addAttribute("confirm", new ConfirmPage("Preheat Redis", "Loads every SKU from the database into "
                + "Redis in paced batches (as configured: by default 200 per batch, 50 ms apart), backing off when "
                + "Redis refuses connections. SKUs already loaded are left as they are. Progress shows on the "
                + "overview.", "/console/preheat", "Start preheat", null, "/console", false, "/console"));
        return "console/confirm";
    }

    @PostMapping
    String preheat(HttpServletRequest request, RedirectAttributes flash) {
        HotStore.PreheatStatus status = requireHotStore().preheat(ConsoleModel.caller(request));
        flash.addFlashAttribute("notice", "Preheat " + status.state().toLowerCase() + ": " + status.total()
                + " SKUs to load.");
        return "redirect:/console";
    }

    private HotStore requireHotStore() {
        HotStore store = hotStore.getIfAvailable();
        if (store == null) {
            throw new ApiProblemException(ProblemCode.NOT_FOUND, ConsoleModel.NO_HOT_STORE_REASON);
        }
        return store;
    }
}
