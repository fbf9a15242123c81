package io.stockguard.access;

import io.stockguard.platform.Actor;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.util.HashSet;
import java.util.Optional;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Re-reads the logged-in person on every request of a session: an admin who disables someone or
 * lowers their role takes effect on that person's very next click, not when their session ends.
 */
final class PersonSessionFilter extends OncePerRequestFilter {

    private final People people;

    PersonSessionFilter(People people) {
        this.people = people;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication != null && authentication.getPrincipal() instanceof Actor actor
                && actor.kind() == Actor.Kind.PERSON) {
            Optional<Person> person = people.find(actor.name()).filter(Person::enabled);
            if (person.isEmpty()) {
                SecurityContextHolder.clearContext();
                HttpSession session = request.getSession(false);
                if (session != null) {
                    session.invalidate();
                }
            } else if (!sameAuthorities(authentication, person.get().role())) {
                SecurityContext context = SecurityContextHolder.createEmptyContext();
                context.setAuthentication(UsernamePasswordAuthenticationToken.authenticated(actor, null,
                        person.get().role().authorities()));
                SecurityContextHolder.setContext(context);
            }
        }
        chain.doFilter(request, response);
    }

    private static boolean sameAuthorities(Authentication authentication, PersonRole role) {
        return new HashSet<GrantedAuthority>(authentication.getAuthorities())
                .equals(new HashSet<>(role.authorities()));
    }
}
