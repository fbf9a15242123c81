package io.stockguard.access;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;

/**
 * {@code ./stockguard hash-password}: reads a password (from the terminal without echo, or one line
 * of standard input) and prints its bcrypt hash for {@code stockguard.security.people.users}. The
 * password is never an argument, so it stays out of shell history and process lists.
 */
public final class HashPassword {

    private HashPassword() {
    }

    public static void main(String[] args) throws IOException {
        Console console = System.console();
        String password;
        if (console != null) {
            char[] typed = console.readPassword("Password (%d-%d characters): ", Person.PASSWORD_LENGTH_MIN,
                    Person.PASSWORD_LENGTH_MAX);
            password = typed == null ? null : new String(typed);
        } else {
            password = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        }
        String problem = Person.problemWithPassword(password);
        if (problem != null) {
            System.err.println("hash-password: the password " + problem);
            System.exit(2);
        }
        System.out.println("{bcrypt}" + new BCryptPasswordEncoder().encode(password));
    }
}
