package io.stockguard.audit.web;

import io.stockguard.audit.AuditEntry;
import io.stockguard.audit.AuditLog;
import io.stockguard.audit.AuditQuery;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Instant;
import java.util.List;
import org.springframework.format.annotation.DateTimeFormat;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(path = "/api/v1/admin/audit", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Admin: audit", description = "Every manual action: who, when, why, before, after")
class AuditController {

    private final AuditLog audit;

    AuditController(AuditLog audit) {
        this.audit = audit;
    }

    @GetMapping
    @Operation(summary = "Audit entries, newest first, filtered by target (e.g. sku:ABC), actor, action and time")
    List<AuditEntry> find(@RequestParam(required = false) String target, @RequestParam(required = false) String actor,
            @RequestParam(required = false) String action,
            @RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) Instant from,
            @RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) Instant to,
            @RequestParam(defaultValue = "100") int limit) {
        return audit.find(new AuditQuery(blankToNull(target), blankToNull(actor), blankToNull(action), from, to, limit));
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
