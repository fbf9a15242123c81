package io.stockguard.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every command of {@code ./stockguard} answers {@code --help} with its usage and exit code 0,
 * without a JDK and without building: a copy of the launcher runs beside a stand-in {@code mvnw}
 * that writes down any call, with a PATH that holds no {@code java} and no {@code JAVA_HOME}, so a
 * launcher that looked for a JDK or built anything would fail or leave a trace. An option the
 * launcher reads itself and does not know is refused with the usage and exit code 2.
 */
class LauncherHelpTest {

    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
    /** The usage texts the chaos suite, the demo and the bench print; the launcher prints the same files. */
    private static final List<String> USAGE_FILES = List.of(
            "chaos/src/main/resources/io/stockguard/chaos/usage.txt",
            "chaos/src/main/resources/io/stockguard/chaos/demo/usage.txt",
            "bench/src/main/resources/io/stockguard/bench/usage.txt");

    @TempDir
    Path root;

    @TempDir
    Path bin;

    private Path calls;

    @BeforeEach
    void copyOfTheLauncher() throws IOException {
        Files.copy(REPOSITORY.resolve("stockguard"), root.resolve("stockguard"), StandardCopyOption.COPY_ATTRIBUTES);
        for (String file : USAGE_FILES) {
            Files.createDirectories(root.resolve(file).getParent());
            Files.copy(REPOSITORY.resolve(file), root.resolve(file));
        }
        calls = root.resolve("calls.log");
        Files.writeString(calls, "");
        Path mvnw = root.resolve("mvnw");
        Files.writeString(mvnw, "#!/bin/bash\necho \"mvnw $*\" >> " + calls + "\nexit 1\n");
        Files.setPosixFilePermissions(mvnw, PosixFilePermissions.fromString("rwxr-xr-x"));
        // Only what the launcher needs to read its own files: no java, no curl, no mvn.
        for (String tool : List.of("bash", "cat", "sed", "dirname")) {
            Path real = List.of(Path.of("/usr/bin", tool), Path.of("/bin", tool)).stream()
                    .filter(Files::isExecutable).findFirst().orElseThrow();
            Files.createSymbolicLink(bin.resolve(tool), real);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"run", "test", "bench", "chaos", "demo", "preheat", "import", "export", "kafka", "redis",
        "hash-password"})
    void everyCommandAnswersHelpWithoutAJdkOrABuild(String command) throws Exception {
        for (String help : List.of("--help", "-h")) {
            Result result = launcher(command, help);

            assertThat(result.exit()).as("%s %s: %s", command, help, result.err()).isZero();
            assertThat(result.out()).as("%s %s", command, help).contains("usage: ./stockguard " + command);
        }
        assertThat(Files.readString(calls)).as("what was built").isEmpty();
    }

    @Test
    void helpAfterOtherOptionsCountsToo() throws Exception {
        Result result = launcher("chaos", "--quick", "--tier=db", "--help");

        assertThat(result.exit()).isZero();
        assertThat(result.out()).startsWith("usage: ./stockguard chaos");
        assertThat(Files.readString(calls)).isEmpty();
    }

    @Test
    void theJavaCommandsPrintTheUsageTheirProgramsPrint() throws Exception {
        assertThat(launcher("chaos", "--help").out()).isEqualTo(usage(USAGE_FILES.get(0)));
        assertThat(launcher("demo", "--help").out()).isEqualTo(usage(USAGE_FILES.get(1)));
        assertThat(launcher("bench", "--help").out()).isEqualTo(usage(USAGE_FILES.get(2)));
    }

    @Test
    void runHelpNamesTheSettingsThatMatterAndStartsNothing() throws Exception {
        Result result = launcher("run", "--help");

        assertThat(result.exit()).isZero();
        assertThat(result.out()).contains("SERVER_PORT", "STOCKGUARD_DATA_DIR", "SPRING_DATASOURCE_URL",
                "stockguard.ledger=redis", "STOCKGUARD_REDIS_URL", "stockguard.journal=kafka",
                "STOCKGUARD_KAFKA_BOOTSTRAP_SERVERS", "STOCKGUARD_SECURITY_API_KEYS", "docs/configuration.md");
        assertThat(Files.readString(calls)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"preheat", "import", "export", "kafka", "redis", "hash-password"})
    void anOptionTheLauncherDoesNotKnowIsRefusedWithTheUsage(String command) throws Exception {
        Result result = launcher(command, "--colour=blue");

        assertThat(result.exit()).as(result.err()).isEqualTo(2);
        assertThat(result.err()).contains("stockguard " + command + ": unknown option --colour=blue")
                .contains("usage: ./stockguard " + command);
        assertThat(result.out()).isEmpty();
    }

    @Test
    void aPortThatIsNotANumberIsRefused() throws Exception {
        Result result = launcher("redis", "--port=six");

        assertThat(result.exit()).isEqualTo(2);
        assertThat(result.err()).contains("--port needs a number, not 'six'");
    }

    @Test
    void helpWithoutACommandListsEveryCommandAndAnUnknownCommandIsRefused() throws Exception {
        Result help = launcher("help");
        assertThat(help.exit()).isZero();
        for (String command : List.of("run", "test", "bench", "chaos", "demo", "preheat", "import", "export",
                "kafka|redis", "hash-password")) {
            assertThat(help.out()).contains("./stockguard " + command);
        }
        assertThat(launcher().exit()).as("no command at all: the same help").isZero();

        Result unknown = launcher("deploy");
        assertThat(unknown.exit()).isEqualTo(2);
        assertThat(unknown.err()).contains("unknown command 'deploy'");
    }

    private static String usage(String file) throws IOException {
        return Files.readString(REPOSITORY.resolve(file)).strip();
    }

    private Result launcher(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("/bin/bash", root.resolve("stockguard").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(root.toFile());
        builder.environment().clear();
        builder.environment().put("PATH", bin.toString());
        builder.environment().put("HOME", root.toString());
        Path out = root.resolve("out-" + System.nanoTime());
        Path err = root.resolve("err-" + System.nanoTime());
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("the launcher finished").isTrue();
        } finally {
            process.destroyForcibly();
        }
        return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8).strip(),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    private record Result(int exit, String out, String err) {
    }
}
