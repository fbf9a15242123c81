package io.stockguard.console.web;

import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;

/** The login page (the form posts to Spring Security) and the page of a refused action. */
@Controller
@ConsolePage
class LoginController {

    @GetMapping("/console/login")
    String login(@RequestParam(required = false) String error, @RequestParam(required = false) String throttled,
            @RequestParam(required = false) String logout, Model model) {
        if (throttled != null) {
            model.addAttribute("message", "Too many wrong passwords for this name. It is refused for a while, "
                    + "even with the right password; try again later or ask an admin.");
        } else if (error != null) {
            model.addAttribute("message", "Wrong name or password.");
        } else if (logout != null) {
            model.addAttribute("notice", "You are logged out.");
        }
        return "console/login";
    }

    /** Spring Security forwards here (status 403 already set) when a role or a CSRF token is missing. */
    @RequestMapping("/console/denied")
    @ResponseStatus(HttpStatus.FORBIDDEN)
    String denied() {
        return "console/denied";
    }
}
