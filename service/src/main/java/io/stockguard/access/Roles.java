package io.stockguard.access;

import io.stockguard.platform.Actor;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/**
 * The authorities behind the access rules. People carry their role and the roles it includes; an
 * admin key carries every person role too (it may use everything), plus {@code ADMIN_KEY}, which
 * alone of them opens the reservation API; an order-service key carries only {@code ORDER_SERVICE},
 * and a metrics key only {@code METRICS}, which opens {@code /actuator/prometheus} and nothing else.
 */
public final class Roles {

    static final String ORDER_SERVICE = "ORDER_SERVICE";
    static final String ADMIN_KEY = "ADMIN_KEY";
    static final String METRICS = "METRICS";

    private Roles() {
    }

    static List<GrantedAuthority> ofKey(Actor.Kind kind) {
        if (kind == Actor.Kind.METRICS_KEY) {
            return List.of(new SimpleGrantedAuthority("ROLE_" + METRICS));
        }
        if (kind != Actor.Kind.ADMIN_KEY) {
            return List.of(new SimpleGrantedAuthority("ROLE_" + ORDER_SERVICE));
        }
        List<GrantedAuthority> authorities = new ArrayList<>(PersonRole.ADMIN.authorities());
        authorities.add(new SimpleGrantedAuthority("ROLE_" + ADMIN_KEY));
        return List.copyOf(authorities);
    }

    /** The highest person role the caller holds (an admin key counts as ADMIN), or empty. */
    public static Optional<PersonRole> roleOf(Authentication authentication) {
        if (authentication == null || !authentication.isAuthenticated()) {
            return Optional.empty();
        }
        PersonRole highest = null;
        for (GrantedAuthority authority : authentication.getAuthorities()) {
            for (PersonRole role : PersonRole.values()) {
                if (role.authority().equals(authority.getAuthority()) && (highest == null || role.includes(highest))) {
                    highest = role;
                }
            }
        }
        return Optional.ofNullable(highest);
    }

    /** True when the caller's role includes {@code role}. */
    public static boolean may(Authentication authentication, PersonRole role) {
        return roleOf(authentication).map(held -> held.includes(role)).orElse(false);
    }
}
