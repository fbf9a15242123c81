package io.stockguard.embedded;

import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/** Says, once the service is ready, where it listens and where an embedded trial's keys are. */
@Component
class StartupBanner {

    private static final Logger log = LoggerFactory.getLogger(StartupBanner.class);

    @EventListener
    void ready(ApplicationReadyEvent event) {
        Environment environment = event.getApplicationContext().getEnvironment();
        int port = event.getApplicationContext() instanceof WebServerApplicationContext web
                ? web.getWebServer().getPort() : -1;
        StringBuilder banner = new StringBuilder("\n\n  StockGuard is ready at http://localhost:").append(port)
                .append("  (console: /console, API docs: /swagger-ui.html, health: /actuator/health)\n");
        if (EmbeddedMode.isEmbedded(environment)) {
            Path data = EmbeddedMode.dataDirectory(environment);
            banner.append("  Embedded tier: PostgreSQL data in ").append(data.resolve("postgres")).append('\n');
            if (environment.getProperty(EmbeddedCredentials.GENERATED_FLAG) != null) {
                banner.append("  Keys: ").append(data.resolve(EmbeddedCredentials.FILE_NAME))
                        .append("  (send as 'Authorization: Bearer <key>', the part after 'name:')\n");
            }
            if (environment.getProperty(EmbeddedCredentials.PASSWORD_GENERATED_FLAG) != null) {
                banner.append("  Console: http://localhost:").append(port).append("/console  user '")
                        .append(EmbeddedCredentials.CONSOLE_USER).append("', password in ")
                        .append(data.resolve(EmbeddedCredentials.FILE_NAME)).append(" (")
                        .append(EmbeddedCredentials.CONSOLE_PASSWORD).append(")\n");
            }
            if (Boolean.parseBoolean(environment.getProperty(EmbeddedCredentials.PASSWORD_GENERATED_FLAG))) {
                banner.append("  Console password generated on this first start: ")
                        .append(environment.getProperty(EmbeddedCredentials.CONSOLE_PASSWORD)).append('\n');
            }
            if (Boolean.parseBoolean(environment.getProperty(EmbeddedCredentials.GENERATED_FLAG))) {
                banner.append("  Generated on this first start:\n")
                        .append("    order-service key: ").append(secretOf(environment, "stockguard.security.api-keys"))
                        .append("\n    admin key:         ")
                        .append(secretOf(environment, "stockguard.security.admin-keys")).append('\n');
            }
        }
        log.info("{}", banner);
    }

    private static String secretOf(Environment environment, String property) {
        String entry = environment.getProperty(property, "");
        int colon = entry.indexOf(':');
        return colon >= 0 ? entry.substring(colon + 1) : entry;
    }
}
