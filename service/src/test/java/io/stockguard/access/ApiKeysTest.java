package io.stockguard.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stockguard.platform.Actor;
import java.util.List;
import org.junit.jupiter.api.Test;

class ApiKeysTest {

    @Test
    void findsKeysByTheirSecretAndNamesTheActorWithoutTheSecret() {
        ApiKeys keys = new ApiKeys(new AccessProperties(List.of("checkout:secret-secret-secret-1"),
                List.of("secret-secret-secret-2")));

        assertThat(keys.find("secret-secret-secret-1")).contains(new Actor(Actor.Kind.API_KEY, "checkout"));
        Actor admin = keys.find("secret-secret-secret-2").orElseThrow();
        assertThat(admin.kind()).isEqualTo(Actor.Kind.ADMIN_KEY);
        assertThat(admin.name()).startsWith("key-").doesNotContain("secret");
        assertThat(keys.find("checkout:secret-secret-secret-1")).isEmpty();
        assertThat(keys.find("secret-secret-secret-3")).isEmpty();
    }

    @Test
    void refusesConfigurationsThatCouldNotServeAnyoneOrUseWeakKeys() {
        assertThatThrownBy(() -> new AccessProperties(List.of(), List.of()))
                .hasMessageContaining("STOCKGUARD_SECURITY_API_KEYS");
        assertThatThrownBy(() -> new AccessProperties(List.of("short"), List.of()))
                .hasMessageContaining("shorter than 16").hasMessageNotContaining("short,");
        assertThatThrownBy(() -> new AccessProperties(List.of("has a space in the secret"), List.of()))
                .hasMessageContaining("printable");
    }

    @Test
    void refusesTheSameSecretAsBothAnApiKeyAndAnAdminKey() {
        assertThatThrownBy(() -> new ApiKeys(new AccessProperties(List.of("same-secret-0123456789"),
                List.of("same-secret-0123456789")))).hasMessageContaining("own key");
    }
}
