package io.stockguard.access;

import io.stockguard.platform.ProblemCode;
import io.stockguard.platform.ProblemWriter;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.AnonymousAuthenticationFilter;

/**
 * The access rules. The API is stateless and authenticated by bearer keys, so there is no
 * session and no cookie to forge: CSRF protection has nothing to protect here and is off for
 * these paths.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AccessProperties.class)
class SecurityConfiguration {

    private static final String[] PUBLIC = {"/actuator/health", "/actuator/health/**", "/v3/api-docs",
            "/v3/api-docs/**", "/swagger-ui.html", "/swagger-ui/**", "/problems/**", "/error"};

    @Bean
    SecurityFilterChain apiSecurity(HttpSecurity http, AccessProperties properties, ProblemWriter problems)
            throws Exception {
        var keyFilter = new ApiKeyAuthenticationFilter(new ApiKeys(properties), problems);
        http.csrf(csrf -> csrf.disable())
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .httpBasic(basic -> basic.disable())
                .formLogin(form -> form.disable())
                .logout(logout -> logout.disable())
                .requestCache(cache -> cache.disable())
                .addFilterBefore(keyFilter, AnonymousAuthenticationFilter.class)
                .authorizeHttpRequests(rules -> rules
                        .requestMatchers(PUBLIC).permitAll()
                        .requestMatchers("/api/v1/admin/**").hasRole(ApiKeyAuthenticationFilter.ROLE_ADMIN)
                        .requestMatchers("/api/v1/**", "/actuator/**").hasAnyRole(
                                ApiKeyAuthenticationFilter.ROLE_ORDER_SERVICE, ApiKeyAuthenticationFilter.ROLE_ADMIN)
                        .anyRequest().authenticated())
                .exceptionHandling(errors -> errors
                        .authenticationEntryPoint((request, response, e) -> {
                            response.setHeader("WWW-Authenticate", "Bearer");
                            problems.write(request, response, ProblemCode.UNAUTHENTICATED,
                                    "send a valid key as 'Authorization: Bearer <key>'");
                        })
                        .accessDeniedHandler((request, response, e) -> problems.write(request, response,
                                ProblemCode.FORBIDDEN, "this key may not use this endpoint")));
        return http.build();
    }
}
