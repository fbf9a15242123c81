package io.stockguard.access;

import io.stockguard.platform.Actor;
import io.stockguard.platform.ProblemCode;
import io.stockguard.platform.ProblemWriter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Authenticates {@code Authorization: Bearer <key>}. A request without the header continues
 * anonymously (and is refused by the rules unless it is public); a request with a wrong key is
 * refused at once, so a typo never silently degrades to anonymous.
 */
final class ApiKeyAuthenticationFilter extends OncePerRequestFilter {

    private static final String BEARER = "Bearer ";
    /** Longer than any sane key; stops hashing megabyte headers. */
    private static final int PRESENTED_LENGTH_MAX = 512;

    private final ApiKeys keys;
    private final ProblemWriter problems;

    ApiKeyAuthenticationFilter(ApiKeys keys, ProblemWriter problems) {
        this.keys = keys;
        this.problems = problems;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String header = request.getHeader("Authorization");
        if (header == null) {
            chain.doFilter(request, response);
            return;
        }
        Optional<Actor> actor = header.regionMatches(true, 0, BEARER, 0, BEARER.length())
                && header.length() - BEARER.length() <= PRESENTED_LENGTH_MAX
                ? keys.find(header.substring(BEARER.length()).strip()) : Optional.empty();
        if (actor.isEmpty()) {
            response.setHeader("WWW-Authenticate", "Bearer error=\"invalid_token\"");
            problems.write(request, response, ProblemCode.UNAUTHENTICATED,
                    "the Authorization header does not carry a valid key (expected: Bearer <key>)");
            return;
        }
        var authentication = UsernamePasswordAuthenticationToken.authenticated(actor.get(), null,
                Roles.ofKey(actor.get().kind()));
        SecurityContext context = SecurityContextHolder.createEmptyContext();
        context.setAuthentication(authentication);
        SecurityContextHolder.setContext(context);
        try {
            chain.doFilter(request, response);
        } finally {
            SecurityContextHolder.clearContext();
        }
    }
}
