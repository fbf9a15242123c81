package io.stockguard.console.web;

import io.stockguard.console.OperatorConsole;
import io.stockguard.platform.ApiProblemException;
import io.stockguard.platform.Caller;
import io.stockguard.platform.InvalidRequestException;
import io.stockguard.reservation.Refusal;
import io.stockguard.reservation.Reservations;
import io.stockguard.reservation.SkuStockView;
import io.stockguard.reservation.StockChangeOutcome;
import io.stockguard.reservation.StockCommand;
import io.stockguard.stock.SkuId;
import jakarta.servlet.http.HttpServletRequest;
import java.util.UUID;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * An admin's correction of a SKU's total, in three steps: the value and the reason (on the SKU
 * page), a review that shows the total before and after, and the confirmation. The review carries
 * a request id, so pressing confirm twice adjusts once.
 */
@Controller
@ConsolePage
@RequestMapping("/console/skus/{skuId}/adjust")
class AdjustController {

    private final Reservations reservations;
    private final OperatorConsole console;

    AdjustController(Reservations reservations, OperatorConsole console) {
        this.reservations = reservations;
        this.console = console;
    }

    /** What the admin asked for: a new total ("set") or a change of it ("delta"). */
    record Proposal(String kind, long value, Long set, Long delta, String reason, long totalBefore, long totalAfter,
            long availableAfter, boolean refusedAsItStands, String requestId) {
    }

    @GetMapping
    String review(@PathVariable String skuId, @RequestParam(required = false) String kind,
            @RequestParam(required = false) String value, @RequestParam(required = false) String reason,
            HttpServletRequest request, Model model) {
        SkuId id = SkuId.of(skuId);
        SkuStockView stock = reservations.stock(id).orElseThrow(() -> SkuPageController.unknown(id));
        StockCommand.Adjust command = command(id, kind, value, reason, null, ConsoleModel.caller(request));
        long after = command.set() != null ? command.set() : stock.total() + command.delta();
        long held = stock.reserved() + stock.sold();
        model.addAttribute("stock", stock);
        model.addAttribute("skuUrl", SkuPageController.skuUrl(id));
        model.addAttribute("proposal", new Proposal(command.set() != null ? "set" : "delta",
                command.set() != null ? command.set() : command.delta(), command.set(), command.delta(),
                command.reason(), stock.total(), after, after - held, after < held,
                "console-" + UUID.randomUUID().toString().replace("-", "")));
        return "console/adjust";
    }

    @PostMapping
    String adjust(@PathVariable String skuId, @RequestParam(required = false) String kind,
            @RequestParam(required = false) String value, @RequestParam(required = false) String reason,
            @RequestParam(required = false) String requestId, HttpServletRequest request, RedirectAttributes flash) {
        SkuId id = SkuId.of(skuId);
        StockCommand.Adjust command = command(id, kind, value, reason, requestId, ConsoleModel.caller(request));
        return switch (reservations.apply(command)) {
            case StockChangeOutcome.Changed changed -> {
                flash.addFlashAttribute("notice", changed.replayed() ? "This adjustment was already made; nothing "
                        + "changed now." : "Total of " + id + " adjusted from " + changed.before().total() + " to "
                        + changed.after().total() + ".");
                yield "redirect:" + SkuPageController.skuUrl(id);
            }
            case Refusal refusal -> throw new ApiProblemException(refusal.code(), refusal.detail(), refusal.properties());
        };
    }

    private StockCommand.Adjust command(SkuId id, String kind, String value, String reason, String requestId,
            Caller caller) {
        if (!console.skuExists(id)) {
            throw SkuPageController.unknown(id);
        }
        long number = number(value);
        boolean set = !"delta".equals(kind);
        return new StockCommand.Adjust(id, set ? number : null, set ? null : number,
                reason == null ? null : reason.strip(), requestId == null || requestId.isBlank() ? null : requestId,
                caller);
    }

    private static long number(String value) {
        try {
            return Long.parseLong(value == null ? "" : value.strip());
        } catch (NumberFormatException e) {
            throw new InvalidRequestException("value", "must be a whole number");
        }
    }
}
