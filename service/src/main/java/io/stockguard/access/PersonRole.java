package io.stockguard.access;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/**
 * What a person may do, each role including the ones before it: a viewer sees everything and
 * changes nothing; an operator stops, resumes and repairs selling; an admin also corrects stock and
 * manages people and keys.
 */
public enum PersonRole {
    VIEWER,
    OPERATOR,
    ADMIN;

    /** This role and every role it includes, as Spring Security authorities. */
    public List<GrantedAuthority> authorities() {
        return Arrays.stream(values()).filter(this::includes)
                .<GrantedAuthority>map(role -> new SimpleGrantedAuthority(role.authority())).toList();
    }

    public boolean includes(PersonRole other) {
        return ordinal() >= other.ordinal();
    }

    /** The authority that stands for this role: {@code ROLE_OPERATOR}. */
    public String authority() {
        return "ROLE_" + name();
    }

    /** Reads a role written in any case; null when the text names no role. */
    public static PersonRole parse(String text) {
        if (text == null) {
            return null;
        }
        try {
            return valueOf(text.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
