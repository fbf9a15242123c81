package io.stockguard.access;

import java.util.regex.Pattern;

/** One entry of {@code stockguard.security.people.users}: {@code name:ROLE:hash}. */
record ConfiguredPerson(String name, PersonRole role, String passwordHash) {

    /** The bcrypt forms Spring Security reads: 2a, 2b and 2y, cost 04 to 31, 53 characters of salt and hash. */
    private static final Pattern BCRYPT = Pattern.compile("\\$2[aby]?\\$\\d\\d\\$[./A-Za-z0-9]{53}");
    static final String BCRYPT_PREFIX = "{bcrypt}";

    static ConfiguredPerson parse(String entry) {
        String[] parts = entry.strip().split(":", 3);
        String hash = parts[2].startsWith(BCRYPT_PREFIX) ? parts[2] : BCRYPT_PREFIX + parts[2];
        return new ConfiguredPerson(parts[0], PersonRole.parse(parts[1]), hash);
    }

    /** What is wrong with an entry, or null; never repeats the hash. */
    static String problemWith(String entry) {
        if (entry == null || entry.isBlank()) {
            return "is empty";
        }
        String[] parts = entry.strip().split(":", 3);
        if (parts.length != 3) {
            return "must be name:ROLE:hash";
        }
        if (!Person.NAME.matcher(parts[0]).matches()) {
            return "has a name that is not 1-64 characters of a-z 0-9 . _ - (lower case)";
        }
        if (PersonRole.parse(parts[1]) == null) {
            return "has a role that is none of VIEWER, OPERATOR, ADMIN";
        }
        String hash = parts[2].startsWith(BCRYPT_PREFIX) ? parts[2].substring(BCRYPT_PREFIX.length()) : parts[2];
        if (!BCRYPT.matcher(hash).matches()) {
            return "has no bcrypt hash (a plain password is never accepted: make a hash with "
                    + "./stockguard hash-password)";
        }
        return null;
    }
}
