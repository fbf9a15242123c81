package io.stockguard.console.web;

import io.stockguard.access.ApiKeyRegistry;
import io.stockguard.access.KeyKind;
import io.stockguard.access.People;
import io.stockguard.access.Person;
import io.stockguard.access.PersonRole;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Locale;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * People and keys, for admins: each change is one form (with its reason) and one button. Everyone
 * may look; only admins may change (the access rules refuse anyone else's form with 403).
 */
@Controller
@ConsolePage
class PeoplePageController {

    private final People people;
    private final ApiKeyRegistry keys;

    PeoplePageController(People people, ApiKeyRegistry keys) {
        this.people = people;
        this.keys = keys;
    }

    @GetMapping("/console/people")
    String people(Model model) {
        model.addAttribute("people", people.all());
        model.addAttribute("roles", PersonRole.values());
        model.addAttribute("passwordMin", Person.PASSWORD_LENGTH_MIN);
        return "console/people";
    }

    @PostMapping("/console/people")
    String create(@RequestParam(required = false) String name, @RequestParam(required = false) String role,
            @RequestParam(required = false) String password, @RequestParam(required = false) String reason,
            HttpServletRequest request, RedirectAttributes flash) {
        Person created = people.create(name == null ? null : name.strip().toLowerCase(Locale.ROOT),
                PersonRole.parse(role), password, reason, ConsoleModel.caller(request));
        flash.addFlashAttribute("notice", created.name() + " may now log in as " + created.role() + ".");
        return "redirect:/console/people";
    }

    @PostMapping("/console/people/{name}/role")
    String role(@PathVariable String name, @RequestParam(required = false) String role,
            @RequestParam(required = false) String reason, HttpServletRequest request, RedirectAttributes flash) {
        Person changed = people.changeRole(name, PersonRole.parse(role), reason, ConsoleModel.caller(request));
        flash.addFlashAttribute("notice", changed.name() + " is now " + changed.role() + ".");
        return "redirect:/console/people";
    }

    @PostMapping("/console/people/{name}/enabled")
    String enabled(@PathVariable String name, @RequestParam(required = false) String enabled,
            @RequestParam(required = false) String reason, HttpServletRequest request, RedirectAttributes flash) {
        Person changed = people.setEnabled(name, "true".equals(enabled), reason, ConsoleModel.caller(request));
        flash.addFlashAttribute("notice", changed.name() + (changed.enabled() ? " may log in again."
                : " may no longer log in; their open sessions end on their next click."));
        return "redirect:/console/people";
    }

    @PostMapping("/console/people/{name}/password")
    String password(@PathVariable String name, @RequestParam(required = false) String password,
            @RequestParam(required = false) String reason, HttpServletRequest request, RedirectAttributes flash) {
        people.resetPassword(name, password, reason, ConsoleModel.caller(request));
        flash.addFlashAttribute("notice", "The password of " + name + " was changed.");
        return "redirect:/console/people";
    }

    @GetMapping("/console/keys")
    String keys(Model model) {
        model.addAttribute("keys", keys.all());
        model.addAttribute("kinds", KeyKind.values());
        return "console/keys";
    }

    /** Shows the new secret on this response only: it is stored as a hash and never shown again. */
    @PostMapping("/console/keys")
    String createKey(@RequestParam(required = false) String name, @RequestParam(required = false) String kind,
            @RequestParam(required = false) String reason, HttpServletRequest request, Model model) {
        KeyKind parsed = kind == null ? null : switch (kind) {
            case "ORDER_SERVICE" -> KeyKind.ORDER_SERVICE;
            case "ADMIN" -> KeyKind.ADMIN;
            default -> null;
        };
        model.addAttribute("created", keys.create(name == null ? null : name.strip().toLowerCase(Locale.ROOT), parsed,
                reason, ConsoleModel.caller(request)));
        return keys(model);
    }

    @PostMapping("/console/keys/{name}/revoke")
    String revoke(@PathVariable String name, @RequestParam(required = false) String reason,
            HttpServletRequest request, RedirectAttributes flash) {
        keys.revoke(name, reason, ConsoleModel.caller(request));
        flash.addFlashAttribute("notice", "Key " + name + " is revoked; every instance refuses it within "
                + ApiKeyRegistry.REFRESH_INTERVAL_MS / 1000 + " seconds.");
        return "redirect:/console/keys";
    }
}
