package io.stockguard.console.web;

import io.stockguard.audit.AuditLog;
import io.stockguard.audit.AuditQuery;
import io.stockguard.console.OperatorConsole;
import io.stockguard.platform.InvalidRequestException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/** Every manual action, newest first, filtered by target, actor, action and time (UTC). */
@Controller
@ConsolePage
class AuditPageController {

    private final AuditLog audit;
    private final OperatorConsole console;

    AuditPageController(AuditLog audit, OperatorConsole console) {
        this.audit = audit;
        this.console = console;
    }

    @GetMapping("/console/audit")
    String audit(@RequestParam(required = false) String target, @RequestParam(required = false) String actor,
            @RequestParam(required = false) String action, @RequestParam(required = false) String from,
            @RequestParam(required = false) String to, Model model) {
        AuditQuery query = new AuditQuery(blankToNull(target), blankToNull(actor), blankToNull(action),
                instant("from", from), instant("to", to), console.properties().auditPageSize());
        model.addAttribute("entries", audit.find(query));
        model.addAttribute("filter", query);
        model.addAttribute("fromText", blankToNull(from));
        model.addAttribute("toText", blankToNull(to));
        return "console/audit";
    }

    /** Accepts what a datetime-local field sends ("2026-11-11T02:17") and full ISO instants, as UTC. */
    private static Instant instant(String field, String text) {
        String value = blankToNull(text);
        if (value == null) {
            return null;
        }
        try {
            return value.endsWith("Z") ? Instant.parse(value) : LocalDateTime.parse(value).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            throw new InvalidRequestException(field, "must be a date and time like 2026-11-11T02:17 (UTC)");
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
