package io.stockguard.console.web;

import io.stockguard.access.PersonRole;
import io.stockguard.access.Roles;
import io.stockguard.console.OperatorConsole;
import io.stockguard.platform.Actor;
import io.stockguard.platform.Caller;
import io.stockguard.platform.CurrentRequest;
import jakarta.servlet.http.HttpServletRequest;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;

/**
 * What every console page knows: who is looking and what their role lets them change, so each
 * page can show an action enabled, or disabled with the reason, rather than hide it.
 */
@ControllerAdvice(annotations = ConsolePage.class)
class ConsoleModel {

    static final String VIEWER_REASON = "Viewers see everything and change nothing: ask an operator.";
    static final String OPERATOR_REASON = "Only admins adjust stock and manage people and keys.";
    static final String NO_HOT_STORE_REASON = "This tier has no hot store: the database is the hot path "
            + "(set stockguard.ledger=redis for the Redis tier).";
    /** Times on every page are UTC, as in the logs and the database, so they compare at a glance. */
    static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS 'UTC'")
            .withZone(ZoneOffset.UTC);

    private final OperatorConsole console;

    ConsoleModel(OperatorConsole console) {
        this.console = console;
    }

    /** The person looking at the page; null on the login page. */
    record Me(String name, String role, boolean canOperate, boolean canAdmin) {
    }

    @ModelAttribute("me")
    Me me() {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication == null || !(authentication.getPrincipal() instanceof Actor actor)) {
            return null;
        }
        String role = Roles.roleOf(authentication).map(r -> r.name().toLowerCase()).orElse("none");
        return new Me(actor.name(), role, Roles.may(authentication, PersonRole.OPERATOR),
                Roles.may(authentication, PersonRole.ADMIN));
    }

    @ModelAttribute("hotTier")
    boolean hotTier() {
        return console.hotTier();
    }

    @ModelAttribute("reasons")
    java.util.Map<String, String> reasons() {
        return java.util.Map.of("viewer", VIEWER_REASON, "operator", OPERATOR_REASON, "noHotStore",
                NO_HOT_STORE_REASON);
    }

    @ModelAttribute("time")
    DateTimeFormatter time() {
        return TIME;
    }

    static Caller caller(HttpServletRequest request) {
        return new Caller(CurrentRequest.actor(), CurrentRequest.traceId(request));
    }

    /** Only paths inside the console are followed after an action: never an open redirect. */
    static String safeReturn(String requested, String fallback) {
        if (requested != null && requested.matches("/console(/[A-Za-z0-9._:/-]*)?(\\?[A-Za-z0-9=&._:%-]*)?")
                && !requested.contains("//")) {
            return requested;
        }
        return fallback;
    }
}
