package io.stockguard.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;

class PeoplePropertiesTest {

    private static final String HASH = new BCryptPasswordEncoder(4).encode("a-long-enough-password");

    private static PeopleProperties withUsers(String... users) {
        return new PeopleProperties(List.of(users), Duration.ofMinutes(30), 10, Duration.ofMinutes(15),
                Duration.ofMinutes(15));
    }

    @Test
    void readsPeopleWithBcryptHashesWithOrWithoutThePrefix() {
        PeopleProperties properties = withUsers("lin:ADMIN:{bcrypt}" + HASH, "wei:viewer:" + HASH);
        assertThat(properties.configured()).extracting(ConfiguredPerson::name, ConfiguredPerson::role)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("lin", PersonRole.ADMIN),
                        org.assertj.core.groups.Tuple.tuple("wei", PersonRole.VIEWER));
        assertThat(properties.configured().get(1).passwordHash()).isEqualTo("{bcrypt}" + HASH);
    }

    @Test
    void refusesPlainPasswordsUnknownRolesBadNamesAndRepeatsWithoutEchoingThem() {
        assertThatThrownBy(() -> withUsers("lin:ADMIN:my-plain-password")).hasMessageContaining("users[0]")
                .hasMessageContaining("bcrypt").hasMessageNotContaining("my-plain-password");
        assertThatThrownBy(() -> withUsers("lin:{noop}:" + HASH)).hasMessageContaining("role");
        assertThatThrownBy(() -> withUsers("Lin Wei:ADMIN:" + HASH)).hasMessageContaining("name");
        assertThatThrownBy(() -> withUsers("lin:ADMIN:" + HASH, "lin:VIEWER:" + HASH))
                .hasMessageContaining("users[1] repeats");
    }

    @Test
    void refusesLimitsOutOfRangeNamingTheSetting() {
        assertThatThrownBy(() -> new PeopleProperties(List.of(), Duration.ofSeconds(5), 10, Duration.ofMinutes(15),
                Duration.ofMinutes(15))).hasMessageContaining("stockguard.security.people.session-timeout");
        assertThatThrownBy(() -> new PeopleProperties(List.of(), Duration.ofMinutes(30), 1, Duration.ofMinutes(15),
                Duration.ofMinutes(15))).hasMessageContaining("stockguard.security.people.login-failures-max");
    }

    @Test
    void rolesIncludeTheRolesBelowThem() {
        assertThat(PersonRole.ADMIN.authorities()).extracting(Object::toString)
                .containsExactly("ROLE_VIEWER", "ROLE_OPERATOR", "ROLE_ADMIN");
        assertThat(PersonRole.VIEWER.authorities()).extracting(Object::toString).containsExactly("ROLE_VIEWER");
        assertThat(PersonRole.OPERATOR.includes(PersonRole.ADMIN)).isFalse();
    }
}
