package io.stockguard;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.scheduling.annotation.EnableScheduling;

/** StockGuard: inventory reservations that never oversell, degraded but never wrong. */
// Callers authenticate with keys, not user names and passwords, so Boot's generated user is excluded.
@SpringBootApplication(excludeName = "org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration")
@ConfigurationPropertiesScan
@EnableScheduling
public class StockGuardApplication {

    public static void main(String[] args) {
        SpringApplication.run(StockGuardApplication.class, args);
    }
}
