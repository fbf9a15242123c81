package io.stockguard.access;

import io.stockguard.platform.ProblemCode;
import io.stockguard.platform.ProblemWriter;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Clock;
import java.util.Set;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.AccessDeniedHandlerImpl;
import org.springframework.security.web.authentication.AnonymousAuthenticationFilter;
import org.springframework.security.web.authentication.SavedRequestAwareAuthenticationSuccessHandler;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;
import org.springframework.security.web.context.SecurityContextHolderFilter;
import org.springframework.security.web.csrf.CookieCsrfTokenRepository;
import org.springframework.security.web.csrf.CsrfException;
import org.springframework.security.web.csrf.CsrfTokenRepository;
import org.springframework.security.web.savedrequest.CookieRequestCache;

/**
 * The access rules, in two chains. The console ({@code /console/**}) is for people: form login,
 * a session cookie (the session itself is in the database, see {@link ConsoleSessions}), and
 * therefore CSRF protection on every change. Everything else is the API:
 * stateless, authenticated by bearer keys; it also honours an existing console session on the
 * admin API (so operators' sessions can use it), and exactly those session-borne changes must
 * carry the console's CSRF token. A request with a key carries no cookie to forge and needs none.
 *
 * <p>Only a login makes a session. Sessions are rows in the shared database, so a visitor who
 * never logs in (a scanner, a load balancer's check, anyone opening the login page) must not make
 * one: the CSRF token lives in its own cookie (checked against the form's or header's copy) and
 * the page asked for before the login in another, not in a session.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({AccessProperties.class, PeopleProperties.class})
class SecurityConfiguration {

    private static final String[] PUBLIC = {"/actuator/health", "/actuator/health/**", "/v3/api-docs",
            "/v3/api-docs/**", "/swagger-ui.html", "/swagger-ui/**", "/problems/**", "/error"};
    /**
     * Admin endpoints that change stock totals, who may do what, or where StockGuard sends data
     * (webhook subscriptions): admins only.
     */
    private static final String[] ADMIN_ONLY_API = {"/api/v1/admin/skus/*/adjust", "/api/v1/admin/people",
            "/api/v1/admin/people/**", "/api/v1/admin/keys", "/api/v1/admin/keys/**",
            "/api/v1/admin/stock-levels/webhooks", "/api/v1/admin/stock-levels/webhooks/**"};
    /** Everyone may look at people and keys; only admins may change them. */
    private static final String[] ADMIN_ONLY_CONSOLE_CHANGES = {"/console/people", "/console/people/**",
            "/console/keys", "/console/keys/**"};
    private static final String[] OPERATOR_CONSOLE = {"/console/skus/*/freeze", "/console/skus/*/unfreeze",
            "/console/skus/*/rebuild", "/console/skus/*/throttle", "/console/skus/*/heal", "/console/preheat", "/console/dead-letters/*/replay"};
    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS", "TRACE");
    private static final String CSRF_COOKIE = "CONSOLE-CSRF";
    /** The header docs/api.md names for a session-borne change's token. */
    private static final String CSRF_HEADER = "X-CSRF-TOKEN";

    /**
     * Spring Security observes each filter of a chain, each authentication and each authorization:
     * about a dozen observations per request, each with its timers and a span (recorded or not).
     * In a profile of HTTP reservations they were a tenth of the service's CPU. The request is
     * observed once anyway ({@code http.server.requests}, and its server span), which says what
     * an operator needs: how long it took and how it ended, 401 and 403 included.
     */
    @Bean
    SecurityObservationSettings securityObservations() {
        return SecurityObservationSettings.noObservations();
    }

    @Bean
    PasswordEncoder passwordEncoder() {
        // bcrypt by default, with the algorithm named in each stored hash ("{bcrypt}$2a$…").
        return PasswordEncoderFactories.createDelegatingPasswordEncoder();
    }

    @Bean
    ApiKeys apiKeys(AccessProperties properties) {
        return new ApiKeys(properties);
    }

    /**
     * CSRF tokens in a cookie of their own, for both chains, so that none needs a session. The
     * cookie is HttpOnly (pages carry the token they need) and SameSite=Strict, Secure whenever
     * the session cookie is told to be (behind a load balancer that ends TLS), and the header
     * keeps the name the API documents.
     */
    @Bean
    CsrfTokenRepository csrfTokens(@Value("${server.servlet.session.cookie.secure:false}") boolean secure) {
        CookieCsrfTokenRepository tokens = new CookieCsrfTokenRepository();
        tokens.setCookieName(CSRF_COOKIE);
        tokens.setHeaderName(CSRF_HEADER);
        tokens.setCookiePath("/");
        tokens.setCookieCustomizer(cookie -> {
            cookie.sameSite("Strict");
            if (secure) {
                cookie.secure(true);
            }
        });
        return tokens;
    }

    @Bean
    @Order(1)
    SecurityFilterChain consoleSecurity(HttpSecurity http, People people, LoginThrottle throttle,
            PasswordEncoder passwords, Clock clock, CsrfTokenRepository csrfTokens,
            @Value("${server.servlet.session.cookie.secure:false}") boolean secure) throws Exception {
        // The page asked for before the login waits in a cookie, not a session (see above); the
        // success handler reads it from the same place. Only this site's own login reads it back,
        // so it gets the CSRF cookie's attributes: another site's page has no use for it.
        var askedBeforeLogin = new CookieRequestCache();
        askedBeforeLogin.setCookieCustomizer(cookie -> {
            cookie.setAttribute("SameSite", "Strict");
            if (secure) {
                cookie.setSecure(true);
            }
        });
        var afterLogin = new SavedRequestAwareAuthenticationSuccessHandler();
        afterLogin.setRequestCache(askedBeforeLogin);
        afterLogin.setDefaultTargetUrl("/console");
        var denied = new AccessDeniedHandlerImpl();
        denied.setErrorPage("/console/denied");
        http.securityMatcher("/console/**")
                .authenticationProvider(new PasswordLogin(people, throttle, passwords, clock))
                .addFilterAfter(new PersonSessionFilter(people), SecurityContextHolderFilter.class)
                .csrf(csrf -> csrf.csrfTokenRepository(csrfTokens))
                .requestCache(cache -> cache.requestCache(askedBeforeLogin))
                .formLogin(form -> form.loginPage("/console/login").loginProcessingUrl("/console/login")
                        // The session's lifetime is the people's session timeout from its start (ConsoleSessions).
                        .successHandler(afterLogin)
                        .failureHandler((request, response, e) -> response.sendRedirect(request.getContextPath()
                                + (e instanceof LoginThrottledException ? "/console/login?throttled"
                                        : "/console/login?error"))))
                .logout(logout -> logout.logoutUrl("/console/logout").logoutSuccessUrl("/console/login?logout"))
                .httpBasic(basic -> basic.disable())
                .headers(headers -> headers.contentSecurityPolicy(csp -> csp.policyDirectives(
                        "default-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; "
                                + "base-uri 'self'; object-src 'none'")))
                .authorizeHttpRequests(rules -> rules
                        .dispatcherTypeMatchers(DispatcherType.FORWARD, DispatcherType.ERROR).permitAll()
                        .requestMatchers("/console/login", "/console/assets/**", "/console/denied").permitAll()
                        .requestMatchers("/console/skus/*/adjust").hasRole(PersonRole.ADMIN.name())
                        .requestMatchers(HttpMethod.POST, ADMIN_ONLY_CONSOLE_CHANGES).hasRole(PersonRole.ADMIN.name())
                        .requestMatchers(OPERATOR_CONSOLE).hasRole(PersonRole.OPERATOR.name())
                        .anyRequest().hasRole(PersonRole.VIEWER.name()))
                .exceptionHandling(errors -> errors.accessDeniedHandler(denied));
        return http.build();
    }

    @Bean
    @Order(2)
    SecurityFilterChain apiSecurity(HttpSecurity http, ApiKeys keys, People people, ProblemWriter problems,
            CsrfTokenRepository csrfTokens) throws Exception {
        var keyFilter = new ApiKeyAuthenticationFilter(keys, problems);
        var sessions = new HttpSessionSecurityContextRepository();
        sessions.setAllowSessionCreation(false);
        http.csrf(csrf -> csrf.csrfTokenRepository(csrfTokens)
                        .requireCsrfProtectionMatcher(SecurityConfiguration::changeBySession))
                .securityContext(context -> context.securityContextRepository(sessions))
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.NEVER))
                .httpBasic(basic -> basic.disable())
                .formLogin(form -> form.disable())
                .logout(logout -> logout.disable())
                .requestCache(cache -> cache.disable())
                .addFilterAfter(new PersonSessionFilter(people), SecurityContextHolderFilter.class)
                .addFilterBefore(keyFilter, AnonymousAuthenticationFilter.class)
                .authorizeHttpRequests(rules -> rules
                        .requestMatchers(PUBLIC).permitAll()
                        .requestMatchers(ADMIN_ONLY_API).hasRole(PersonRole.ADMIN.name())
                        // An import sets totals like an adjustment; following one is for operators too.
                        .requestMatchers(org.springframework.http.HttpMethod.POST, "/api/v1/admin/skus:import")
                        .hasRole(PersonRole.ADMIN.name())
                        .requestMatchers("/api/v1/admin/**").hasRole(PersonRole.OPERATOR.name())
                        // A scraper's key reads the metrics and nothing else; the keys that could already
                        // read them still may.
                        .requestMatchers("/actuator/prometheus")
                        .hasAnyRole(Roles.METRICS, Roles.ORDER_SERVICE, Roles.ADMIN_KEY)
                        .requestMatchers("/api/v1/**", "/actuator/**").hasAnyRole(Roles.ORDER_SERVICE, Roles.ADMIN_KEY)
                        .anyRequest().hasAnyRole(Roles.ORDER_SERVICE, Roles.ADMIN_KEY, PersonRole.VIEWER.name()))
                .exceptionHandling(errors -> errors
                        .authenticationEntryPoint((request, response, e) -> {
                            response.setHeader("WWW-Authenticate", "Bearer");
                            problems.write(request, response, ProblemCode.UNAUTHENTICATED,
                                    "send a valid key as 'Authorization: Bearer <key>'");
                        })
                        .accessDeniedHandler((request, response, e) -> problems.write(request, response,
                                ProblemCode.FORBIDDEN, e instanceof CsrfException
                                        ? "a change made with a console session must carry the console's CSRF token "
                                                + "(header " + CSRF_HEADER + "); scripts should use a key instead"
                                        : "this caller may not use this endpoint")));
        return http.build();
    }

    /**
     * A change that could only be authorised by a session cookie: an unsafe method, no key, and a
     * session presented. Anonymous requests without a cookie are left to the rules (401).
     */
    private static boolean changeBySession(HttpServletRequest request) {
        return !SAFE_METHODS.contains(request.getMethod()) && request.getHeader(HttpHeaders.AUTHORIZATION) == null
                && request.getRequestedSessionId() != null;
    }
}
