package io.stockguard.access;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import java.util.List;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Tells the OpenAPI document how callers authenticate, as {@link ApiKeyAuthenticationFilter} reads
 * it: a key in {@code Authorization: Bearer <key>}, required on every {@code /api/v1} operation.
 * Nothing else in the document gets it: health probes, the document itself and the problem
 * descriptions are public ({@link SecurityConfiguration}).
 */
@Configuration(proxyBeanMethods = false)
class ApiKeyDocs {

    static final String SCHEME = "apiKey";
    private static final String SECURED_PREFIX = "/api/v1/";

    @Bean
    OpenApiCustomizer bearerKeys() {
        return openApi -> {
            if (openApi.getComponents() == null) {
                openApi.setComponents(new Components());
            }
            openApi.getComponents().addSecuritySchemes(SCHEME, new SecurityScheme()
                    .type(SecurityScheme.Type.HTTP).scheme("bearer").bearerFormat("StockGuard API key")
                    .description("A key sent as `Authorization: Bearer <key>`: the part after `name:` of a "
                            + "configured entry, or a key created with POST /api/v1/admin/keys. Order-service keys "
                            + "may call everything under /api/v1 except /api/v1/admin (403 FORBIDDEN); admin keys "
                            + "may call everything. A wrong key is refused (401), never taken as anonymous. "
                            + "Operators' console sessions are also honoured on /api/v1/admin, but scripts "
                            + "should use keys."));
            if (openApi.getPaths() == null) {
                return;
            }
            openApi.getPaths().forEach((path, item) -> {
                if (path.startsWith(SECURED_PREFIX)) {
                    item.readOperations().forEach(operation ->
                            operation.setSecurity(List.of(new SecurityRequirement().addList(SCHEME))));
                }
            });
        };
    }
}
