package io.stockguard;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.scheduling.annotation.EnableScheduling;

/** StockGuard: inventory reservations that never oversell, degraded but never wrong. */
// Keys and people are authenticated by the access module itself; Boot's generated user (with a password
// printed at start) is excluded so that no default password ever exists outside the embedded trial.
@SpringBootApplication(excludeName = "org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration")
@ConfigurationPropertiesScan
@EnableScheduling
public class StockGuardApplication {

    public static void main(String[] args) {
        SpringApplication.run(StockGuardApplication.class, args);
    }
}
