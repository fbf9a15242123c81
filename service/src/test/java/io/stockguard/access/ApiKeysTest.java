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
                List.of("secret-secret-secret-2"), List.of("prometheus:secret-secret-secret-4")));

        assertThat(keys.find("secret-secret-secret-1")).contains(new Actor(Actor.Kind.API_KEY, "checkout"));
        Actor admin = keys.find("secret-secret-secret-2").orElseThrow();
        assertThat(admin.kind()).isEqualTo(Actor.Kind.ADMIN_KEY);
        assertThat(admin.name()).startsWith("key-").doesNotContain("secret");
        assertThat(keys.find("checkout:secret-secret-secret-1")).isEmpty();
        assertThat(keys.find("secret-secret-secret-3")).isEmpty();
        assertThat(keys.find("secret-secret-secret-4")).contains(new Actor(Actor.Kind.METRICS_KEY, "prometheus"));
        assertThat(keys.configuredKinds()).containsEntry("checkout", KeyKind.ORDER_SERVICE)
                .containsEntry("prometheus", KeyKind.METRICS).containsEntry(admin.name(), KeyKind.ADMIN);
    }

    @Test
    void aMetricsKeyCarriesTheMetricsRoleAlone() {
        assertThat(Roles.ofKey(Actor.Kind.METRICS_KEY)).extracting(Object::toString).containsExactly("ROLE_METRICS");
        assertThat(Roles.ofKey(Actor.Kind.API_KEY)).extracting(Object::toString).containsExactly("ROLE_ORDER_SERVICE");
    }

    @Test
    void metricsKeysAloneServeNoCaller() {
        assertThatThrownBy(() -> new AccessProperties(List.of(), List.of(), List.of("prometheus:secret-secret-secret-4")))
                .hasMessageContaining("no keys are configured");
    }

    @Test
    void refusesConfigurationsThatCouldNotServeAnyoneOrUseWeakKeys() {
        assertThatThrownBy(() -> new AccessProperties(List.of(), List.of(), List.of()))
                .hasMessageContaining("STOCKGUARD_SECURITY_API_KEYS");
        assertThatThrownBy(() -> new AccessProperties(List.of("short"), List.of(), List.of()))
                .hasMessageContaining("shorter than 16").hasMessageNotContaining("short,");
        assertThatThrownBy(() -> new AccessProperties(List.of("has a space in the secret"), List.of(), List.of()))
                .hasMessageContaining("printable");
    }

    @Test
    void refusesTheSameSecretAsKeysOfTwoKinds() {
        assertThatThrownBy(() -> new ApiKeys(new AccessProperties(List.of("same-secret-0123456789"),
                List.of("same-secret-0123456789"), List.of()))).hasMessageContaining("own key");
        assertThatThrownBy(() -> new ApiKeys(new AccessProperties(List.of("same-secret-0123456789"), List.of(),
                List.of("same-secret-0123456789")))).hasMessageContaining("own key");
    }
}
