package io.stockguard.console.web;

import io.stockguard.console.ConsoleViews;
import io.stockguard.console.OperatorConsole;
import io.stockguard.stock.OrderId;
import java.nio.charset.StandardCharsets;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.util.UriUtils;

/** One order across every layer, found by its id in one step from the search box on every page. */
@Controller
@ConsolePage
class OrderTraceController {

    private final OperatorConsole console;

    OrderTraceController(OperatorConsole console) {
        this.console = console;
    }

    @GetMapping("/console/orders")
    String search(@RequestParam(required = false) String orderId) {
        if (orderId == null || orderId.isBlank()) {
            return "console/order-search";
        }
        OrderId id = OrderId.of(orderId.strip());
        return "redirect:/console/orders/" + UriUtils.encodePathSegment(id.value(), StandardCharsets.UTF_8);
    }

    @GetMapping("/console/orders/{orderId}")
    String trace(@PathVariable String orderId, Model model) {
        ConsoleViews.OrderTrace trace = console.trace(OrderId.of(orderId));
        model.addAttribute("trace", trace);
        return "console/order";
    }
}
