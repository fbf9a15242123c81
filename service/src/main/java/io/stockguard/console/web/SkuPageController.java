package io.stockguard.console.web;

import io.stockguard.console.ConsoleViews;
import io.stockguard.console.OperatorConsole;
import io.stockguard.guard.SkuGuards;
import io.stockguard.guard.SkuModeChanged;
import io.stockguard.platform.ApiProblemException;
import io.stockguard.platform.Caller;
import io.stockguard.platform.InvalidRequestException;
import io.stockguard.platform.ProblemCode;
import io.stockguard.reconciliation.Healing;
import io.stockguard.hotstore.HotStore;
import io.stockguard.stock.SkuId;
import io.stockguard.stocklevel.StockLevelStore;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;
import org.springframework.web.util.UriUtils;

/**
 * A SKU's page and its mode actions. Freeze, unfreeze and rebuild are two steps from wherever
 * their button is: the button, then the confirmation (whose reason is prefilled for freeze, the
 * action that must be fastest).
 */
@Controller
@ConsolePage
@RequestMapping("/console/skus")
class SkuPageController {

    /** The newest stock-level events a SKU's page lists. */
    static final int LEVEL_EVENTS_SHOWN = 10;

    private final OperatorConsole console;
    private final SkuGuards guards;
    private final ObjectProvider<HotStore> hotStore;
    private final Healing healing;
    private final StockLevelStore levels;

    SkuPageController(OperatorConsole console, SkuGuards guards, ObjectProvider<HotStore> hotStore, Healing healing,
            StockLevelStore levels) {
        this.levels = levels;
        this.console = console;
        this.guards = guards;
        this.hotStore = hotStore;
        this.healing = healing;
    }

    @GetMapping
    String find(@RequestParam(required = false) String skuId) {
        if (skuId == null || skuId.isBlank()) {
            return "redirect:/console";
        }
        return "redirect:" + skuUrl(SkuId.of(skuId.strip()));
    }

    @GetMapping("/{skuId}")
    String sku(@PathVariable String skuId, Model model) {
        SkuId id = SkuId.of(skuId);
        ConsoleViews.SkuPage page = console.sku(id).orElseThrow(() -> unknown(id));
        model.addAttribute("page", page);
        model.addAttribute("skuUrl", skuUrl(id));
        model.addAttribute("canThrottle", guards.canThrottle());
        model.addAttribute("level", levels.levels(List.of(id)).get(id));
        model.addAttribute("levelEvents", levels.recent(id, LEVEL_EVENTS_SHOWN));
        model.addAttribute("driftPlot", page.driftHistory().isEmpty() ? null
                : DriftPlot.of(page.driftHistory(), console.properties().drift()));
        return "console/sku";
    }

    @GetMapping("/{skuId}/freeze")
    String confirmFreeze(@PathVariable String skuId, @RequestParam(required = false) String returnTo,
            HttpServletRequest request, Model model) {
        SkuId id = SkuId.of(skuId);
        requireExists(id);
        return confirm(model, new ConfirmPage("Freeze " + id, "As soon as you confirm, every instance refuses new "
                + "reservations of " + id + " with 423 SKU_FROZEN (shoppers see \"temporarily out of stock\"). "
                + "Queries, cancels and restocks keep working.", skuUrl(id) + "/freeze", "Freeze " + id + " now",
                "Stopped from the console by " + ConsoleModel.caller(request).actor().name(),
                ConsoleModel.safeReturn(returnTo, skuUrl(id)), true, ConsoleModel.safeReturn(returnTo, skuUrl(id))));
    }

    @PostMapping("/{skuId}/freeze")
    String freeze(@PathVariable String skuId, @RequestParam(required = false) String reason,
            @RequestParam(required = false) String returnTo, HttpServletRequest request, RedirectAttributes flash) {
        SkuId id = SkuId.of(skuId);
        SkuModeChanged change = changed(id, guards.freeze(id, reason, caller(request).actor(), caller(request).traceId()));
        flash.addFlashAttribute("notice", id + " is frozen (was " + change.before() + "): reservations are refused "
                + "with 423 SKU_FROZEN on every instance.");
        return "redirect:" + ConsoleModel.safeReturn(returnTo, skuUrl(id));
    }

    @GetMapping("/{skuId}/unfreeze")
    String confirmUnfreeze(@PathVariable String skuId, @RequestParam(required = false) String returnTo, Model model) {
        SkuId id = SkuId.of(skuId);
        requireExists(id);
        return confirm(model, new ConfirmPage("Unfreeze " + id, "As soon as you confirm, every instance sells " + id
                + " again. Check the SKU's numbers and the reason it was frozen first.", skuUrl(id) + "/unfreeze",
                "Unfreeze " + id + " now", "", ConsoleModel.safeReturn(returnTo, skuUrl(id)), false,
                ConsoleModel.safeReturn(returnTo, skuUrl(id))));
    }

    @PostMapping("/{skuId}/unfreeze")
    String unfreeze(@PathVariable String skuId, @RequestParam(required = false) String reason,
            @RequestParam(required = false) String returnTo, HttpServletRequest request, RedirectAttributes flash) {
        SkuId id = SkuId.of(skuId);
        SkuModeChanged change = changed(id, guards.unfreeze(id, reason, caller(request).actor(),
                caller(request).traceId()));
        flash.addFlashAttribute("notice", id + " sells again (was " + change.before() + ").");
        return "redirect:" + ConsoleModel.safeReturn(returnTo, skuUrl(id));
    }

    @GetMapping("/{skuId}/rebuild")
    String confirmRebuild(@PathVariable String skuId, Model model) {
        SkuId id = SkuId.of(skuId);
        requireHotStore();
        requireExists(id);
        return confirm(model, new ConfirmPage("Rebuild " + id + " in Redis", "Drain and rebase: " + id + " stops "
                + "selling from Redis for a moment, everything Redis journaled for it is applied to the database, "
                + "and Redis is reloaded from the database under a new epoch. Use it when Redis and the database "
                + "disagree; it takes about a second and is audited with before and after.",
                skuUrl(id) + "/rebuild", "Rebuild " + id + " now", "", skuUrl(id), true, skuUrl(id)));
    }

    @PostMapping("/{skuId}/rebuild")
    String rebuild(@PathVariable String skuId, @RequestParam(required = false) String reason,
            HttpServletRequest request, RedirectAttributes flash) {
        SkuId id = SkuId.of(skuId);
        HotStore store = requireHotStore();
        HotStore.Rebuilt rebuilt = store.rebuild(id, SkuGuards.requireReason(reason), caller(request));
        flash.addFlashAttribute("notice", rebuilt.rebuilt()
                ? id + " was rebuilt in Redis from the database" + (rebuilt.after() == null ? "."
                        : " (epoch " + rebuilt.after().epoch() + ").")
                : id + " was not rebuilt: the database path is serving it or Redis is unreachable; see the runbook "
                        + "\"Redis down\".");
        return "redirect:" + skuUrl(id);
    }

    @GetMapping("/{skuId}/throttle")
    String confirmThrottle(@PathVariable String skuId, @RequestParam(required = false) String ratePerSecond,
            Model model) {
        SkuId id = SkuId.of(skuId);
        requireExists(id);
        if (!guards.canThrottle()) {
            throw new ApiProblemException(ProblemCode.THROTTLE_UNSUPPORTED, "This tier cannot throttle a SKU: the "
                    + "database ledger does not enforce a rate. Freeze it instead.");
        }
        int rate = checkedRate(ratePerSecond);
        return confirm(model, new ConfirmPage("Throttle " + id + " to " + rate + "/s", "As soon as you confirm, all "
                + "instances together accept at most " + rate + " new reservations of " + id + " per second; the "
                + "rest get 429 THROTTLED with Retry-After. Unfreeze lifts it.", skuUrl(id) + "/throttle",
                "Throttle " + id + " now", "", skuUrl(id), true, skuUrl(id),
                Map.of("ratePerSecond", Integer.toString(rate))));
    }

    @PostMapping("/{skuId}/throttle")
    String throttle(@PathVariable String skuId, @RequestParam(required = false) String ratePerSecond,
            @RequestParam(required = false) String reason, HttpServletRequest request, RedirectAttributes flash) {
        SkuId id = SkuId.of(skuId);
        int rate = checkedRate(ratePerSecond);
        SkuModeChanged change = changed(id, guards.throttle(id, rate, reason, caller(request).actor(),
                caller(request).traceId()));
        flash.addFlashAttribute("notice", id + " is throttled to " + rate + " reservations per second for the whole "
                + "cluster (was " + change.before() + ").");
        return "redirect:" + skuUrl(id);
    }

    @GetMapping("/{skuId}/heal")
    String confirmHeal(@PathVariable String skuId, Model model) {
        SkuId id = SkuId.of(skuId);
        requireHotStore();
        requireExists(id);
        return confirm(model, new ConfirmPage("Heal " + id, "Drain and rebase: " + id + " is frozen, everything "
                + "Redis journaled for it is applied to the database, Redis is set from the database under a new "
                + "epoch, and the SKU sells again only if it is then in step (otherwise it stays frozen). Whatever "
                + "Redis had beyond the database is dropped; the audit keeps the drift before and after.",
                skuUrl(id) + "/heal", "Heal " + id + " now", "", skuUrl(id), true, skuUrl(id)));
    }

    @PostMapping("/{skuId}/heal")
    String heal(@PathVariable String skuId, @RequestParam(required = false) String reason, HttpServletRequest request,
            RedirectAttributes flash) {
        SkuId id = SkuId.of(skuId);
        requireHotStore();
        requireExists(id);
        Healing.Healed healed = healing.heal(id, reason, true, caller(request).actor(), caller(request).traceId());
        flash.addFlashAttribute("notice", id + " healed: drift " + healed.before().units() + " units before, "
                + healed.after().units() + " after (" + healed.after().kind() + "); it is " + healed.mode() + ".");
        return "redirect:" + skuUrl(id);
    }

    /** The rate as typed: a whole number of reservations per second, 1 to the guard's maximum. */
    private static int checkedRate(String ratePerSecond) {
        int rate;
        try {
            rate = ratePerSecond == null ? 0 : Integer.parseInt(ratePerSecond.strip());
        } catch (NumberFormatException e) {
            rate = 0;
        }
        if (rate < 1 || rate > SkuGuards.THROTTLE_RATE_MAX) {
            throw new InvalidRequestException("ratePerSecond", "must be a whole number between 1 and "
                    + SkuGuards.THROTTLE_RATE_MAX);
        }
        return rate;
    }

    private String confirm(Model model, ConfirmPage page) {
        model.addAttribute("confirm", page);
        return "console/confirm";
    }

    private HotStore requireHotStore() {
        HotStore store = hotStore.getIfAvailable();
        if (store == null) {
            throw new ApiProblemException(ProblemCode.NOT_FOUND, ConsoleModel.NO_HOT_STORE_REASON);
        }
        return store;
    }

    private void requireExists(SkuId id) {
        if (!console.skuExists(id)) {
            throw unknown(id);
        }
    }

    private static SkuModeChanged changed(SkuId id, Optional<SkuModeChanged> change) {
        return change.orElseThrow(() -> unknown(id));
    }

    static ApiProblemException unknown(SkuId id) {
        return ApiProblemException.unknownSku(id.value());
    }

    static String skuUrl(SkuId id) {
        return "/console/skus/" + UriUtils.encodePathSegment(id.value(), java.nio.charset.StandardCharsets.UTF_8);
    }

    private static Caller caller(HttpServletRequest request) {
        return ConsoleModel.caller(request);
    }
}
