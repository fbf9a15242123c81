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
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How {@code ./stockguard test} gets the tools its tests drive (Chromium and chromedriver for the
 * console's browser tests, PgBouncer for the pooler tests), tried without installing or
 * uninstalling anything: bash runs the launcher with a PATH that holds only stand-ins for
 * chromium, chromedriver, pgbouncer, apt-get, sudo and id, which write down how they were called;
 * the end-to-end cases run a copy of the launcher next to a stand-in {@code mvnw}. PgBouncer is
 * found through {@code STOCKGUARD_PGBOUNCER}, which names a stand-in, so the machine's own
 * {@code /usr/sbin/pgbouncer} never decides a case.
 */
class LauncherTestToolsTest {

    private static final Path LAUNCHER = Path.of("..", "stockguard").toAbsolutePath().normalize();

    /** The stand-ins: the only directory on the PATH the launcher's functions see. */
    @TempDir
    Path bin;

    /** A copy of the launcher beside a stand-in mvnw, and what the stand-ins wrote down. */
    @TempDir
    Path root;

    private Path calls;

    /** Where the launcher is told PgBouncer is: a stand-in, present unless a case removes it. */
    private Path pgbouncer;

    @BeforeEach
    void standIns() throws IOException {
        calls = root.resolve("calls.log");
        Files.writeString(calls, "");
        pgbouncer = executable(bin.resolve("pgbouncer"), "");
        // Real tools the launcher itself uses, linked in so that PATH needs nothing else.
        for (String tool : List.of("bash", "env", "awk", "cut", "dirname", "readlink")) {
            Path real = List.of(Path.of("/usr/bin", tool), Path.of("/bin", tool)).stream()
                    .filter(Files::isExecutable).findFirst().orElseThrow();
            Files.createSymbolicLink(bin.resolve(tool), real);
        }
    }

    @Test
    void chromiumAndDriverOnThePathAreUsedAsTheyAre() throws Exception {
        standIn("chromium", "");
        standIn("chromedriver", "");
        aptGet(0);
        uid(0);

        assertThat(run("test_setup_plan").out()).isEqualTo("present");
        assertThat(run("ensure_test_tools && echo \"$CHROME_BINARY $CHROMEDRIVER\"").out())
                .isEqualTo(bin.resolve("chromium") + " " + bin.resolve("chromedriver"));
        assertThat(Files.readString(calls)).as("nothing installed").isEmpty();
    }

    @Test
    void chromeBinaryAndChromedriverSettingsCountAsPresent() throws Exception {
        Path browser = executable(root.resolve("my-chrome"), "");
        Path driver = executable(root.resolve("my-driver"), "");
        aptGet(0);
        uid(0);

        Result result = run("ensure_test_tools && echo \"$CHROME_BINARY $CHROMEDRIVER\"",
                Map.of("CHROME_BINARY", browser.toString(), "CHROMEDRIVER", driver.toString()));

        assertThat(result.out()).isEqualTo(browser + " " + driver);
        assertThat(Files.readString(calls)).isEmpty();
    }

    @Test
    void rootWithAptGetInstallsBothNonInteractivelyAfterAnUpdate() throws Exception {
        aptGet(0);
        uid(0);

        assertThat(run("test_setup_plan").out()).isEqualTo("root");
        Result result = run("ensure_test_tools && echo \"$CHROME_BINARY $CHROMEDRIVER\"");

        assertThat(result.exit()).as(result.err()).isZero();
        assertThat(Files.readAllLines(calls)).containsExactly(
                "apt-get update -q DEBIAN_FRONTEND=noninteractive",
                "apt-get install -y -q chromium chromium-driver DEBIAN_FRONTEND=noninteractive");
        assertThat(result.out()).isEqualTo(bin.resolve("chromium") + " " + bin.resolve("chromedriver"));
    }

    @Test
    void aMissingDriverAloneIsInstalledToo() throws Exception {
        standIn("chromium", "");
        aptGet(0);
        uid(0);

        assertThat(run("test_setup_plan").out()).isEqualTo("root");
        assertThat(run("ensure_test_tools").exit()).isZero();
        assertThat(Files.readString(calls)).contains("apt-get install -y -q chromium chromium-driver");
    }

    @Test
    void anOrdinaryUserWithPasswordlessSudoInstallsThroughSudo() throws Exception {
        aptGet(0);
        uid(1000);
        sudo(true);

        assertThat(run("test_setup_plan").out()).isEqualTo("sudo");
        Result result = run("ensure_test_tools");

        assertThat(result.exit()).as(result.err()).isZero();
        assertThat(Files.readAllLines(calls)).containsExactly(
                "sudo -n env DEBIAN_FRONTEND=noninteractive apt-get update -q",
                "apt-get update -q DEBIAN_FRONTEND=noninteractive",
                "sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver",
                "apt-get install -y -q chromium chromium-driver DEBIAN_FRONTEND=noninteractive");
    }

    @Test
    void anOrdinaryUserWhoseSudoAsksForAPasswordIsToldTheOneCommandAndNothingRuns() throws Exception {
        aptGet(0);
        uid(1000);
        sudo(false);

        assertThat(run("test_setup_plan").out()).isEqualTo("manual");
        Result result = run("ensure_test_tools");

        assertThat(result.exit()).isNotZero();
        assertThat(result.err()).contains("  sudo apt-get install -y chromium chromium-driver");
        assertThat(Files.readString(calls)).as("no apt-get, no sudo install").doesNotContain("apt-get");
    }

    @Test
    void withoutAptGetEvenRootIsToldWhatToInstall() throws Exception {
        uid(0);

        assertThat(run("test_setup_plan").out()).isEqualTo("manual");
        Result result = run("ensure_test_tools");

        assertThat(result.exit()).isNotZero();
        assertThat(result.err()).contains("no apt-get", "CHROME_BINARY", "CHROMEDRIVER");
    }

    @Test
    void aFailedInstallFailsAndSaysSo() throws Exception {
        aptGet(100);
        uid(0);

        Result result = run("ensure_test_tools");

        assertThat(result.exit()).isNotZero();
        assertThat(result.err()).contains("installing chromium chromium-driver failed");
        assertThat(Files.readAllLines(calls)).containsExactly("apt-get update -q DEBIAN_FRONTEND=noninteractive");
    }

    @Test
    void theTestCommandStopsBeforeMavenWhenItMayNotInstall() throws Exception {
        aptGet(0);
        uid(1000);
        sudo(false);

        Result result = testCommand();

        assertThat(result.exit()).isNotZero();
        assertThat(result.err()).contains("sudo apt-get install -y chromium chromium-driver");
        assertThat(Files.readString(calls)).doesNotContain("mvnw").doesNotContain("apt-get");
    }

    @Test
    void theTestCommandInstallsThenRunsMavenWithTheBrowserItInstalled() throws Exception {
        aptGet(0);
        uid(0);

        Result result = testCommand("-pl", "service");

        assertThat(result.exit()).as(result.err()).isZero();
        assertThat(Files.readAllLines(calls)).containsExactly(
                "apt-get update -q DEBIAN_FRONTEND=noninteractive",
                "apt-get install -y -q chromium chromium-driver DEBIAN_FRONTEND=noninteractive",
                "mvnw -B verify -pl service CHROME_BINARY=" + bin.resolve("chromium")
                        + " CHROMEDRIVER=" + bin.resolve("chromedriver"));
    }

    @Test
    void aMissingPgBouncerAloneIsInstalledAndHandedToTheTests() throws Exception {
        standIn("chromium", "");
        standIn("chromedriver", "");
        Files.delete(pgbouncer);
        aptGet(0);
        uid(0);

        assertThat(run("missing_test_packages").out()).isEqualTo("pgbouncer");
        assertThat(run("test_setup_plan").out()).isEqualTo("root");
        Result result = run("ensure_test_tools && echo \"$STOCKGUARD_PGBOUNCER\"");

        assertThat(result.exit()).as(result.err()).isZero();
        assertThat(Files.readAllLines(calls)).containsExactly(
                "apt-get update -q DEBIAN_FRONTEND=noninteractive",
                "apt-get install -y -q pgbouncer DEBIAN_FRONTEND=noninteractive");
        assertThat(result.out()).isEqualTo(pgbouncer.toString());
    }

    @Test
    void everythingMissingIsInstalledWithOneCommand() throws Exception {
        Files.delete(pgbouncer);
        aptGet(0);
        uid(0);

        Result result = run("ensure_test_tools");

        assertThat(result.exit()).as(result.err()).isZero();
        assertThat(Files.readAllLines(calls)).contains(
                "apt-get install -y -q chromium chromium-driver pgbouncer DEBIAN_FRONTEND=noninteractive");
    }

    @Test
    void withoutTheSettingPgBouncerIsFoundOnThePathAndExported() throws Exception {
        standIn("chromium", "");
        standIn("chromedriver", "");
        uid(0);

        Result result = run("ensure_test_tools && echo \"$STOCKGUARD_PGBOUNCER\"", Map.of("STOCKGUARD_PGBOUNCER", ""));

        assertThat(result.exit()).as(result.err()).isZero();
        assertThat(result.out()).isEqualTo(bin.resolve("pgbouncer").toString());
        assertThat(Files.readString(calls)).as("nothing installed").isEmpty();
    }

    @Test
    void aUserWhoMayNotInstallIsToldTheCommandForPgBouncerToo() throws Exception {
        standIn("chromium", "");
        standIn("chromedriver", "");
        Files.delete(pgbouncer);
        aptGet(0);
        uid(1000);
        sudo(false);

        Result result = run("ensure_test_tools");

        assertThat(result.exit()).isNotZero();
        assertThat(result.err()).contains("  sudo apt-get install -y pgbouncer");
        assertThat(Files.readString(calls)).doesNotContain("apt-get");
    }

    /** Runs the launcher's test command from a copy of it whose mvnw only writes down its call. */
    private Result testCommand(String... args) throws Exception {
        Path launcher = Files.copy(LAUNCHER, root.resolve("stockguard"), StandardCopyOption.COPY_ATTRIBUTES);
        executable(root.resolve("mvnw"), "echo \"mvnw $* CHROME_BINARY=$CHROME_BINARY CHROMEDRIVER=$CHROMEDRIVER\" >> "
                + calls);
        return bash("exec \"$0\" test \"$@\"", launcher.toString(), List.of(args), Map.of());
    }

    private Result run(String snippet) throws Exception {
        return run(snippet, Map.of());
    }

    /** Sources the launcher (which then only defines its functions), narrows PATH, runs the snippet. */
    private Result run(String snippet, Map<String, String> environment) throws Exception {
        return bash("source \"$1\"; " + snippet, "bash", List.of(LAUNCHER.toString()), environment);
    }

    private Result bash(String script, String zero, List<String> args, Map<String, String> environment)
            throws Exception {
        List<String> command = new ArrayList<>(List.of("/bin/bash", "-c", script, zero));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).directory(root.toFile());
        Map<String, String> env = builder.environment();
        // What the test itself runs under (./stockguard test exports the first two) must not leak in.
        env.remove("CHROME_BINARY");
        env.remove("CHROMEDRIVER");
        env.remove("DEBIAN_FRONTEND");
        env.put("STOCKGUARD_PGBOUNCER", pgbouncer.toString());
        env.put("PATH", bin.toString());
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.putAll(environment);
        Path out = root.resolve("out-" + System.nanoTime());
        Path err = root.resolve("err-" + System.nanoTime());
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("bash finished").isTrue();
        } finally {
            process.destroyForcibly();
        }
        return new Result(process.exitValue(), Files.readString(out).strip(), Files.readString(err));
    }

    private record Result(int exit, String out, String err) {
    }

    private void uid(int uid) throws IOException {
        standIn("id", "[ \"$1\" = -u ] && echo " + uid);
    }

    /** A sudo that either lets this user run anything without a password, or would ask for one. */
    private void sudo(boolean passwordless) throws IOException {
        standIn("sudo", passwordless
                ? "[ \"$1\" = -n ] || exit 9\n[ \"$2\" = true ] && exit 0\necho \"sudo $*\" >> " + calls
                        + "\nshift\nexec \"$@\""
                : "echo 'sudo: a password is required' >&2\nexit 1");
    }

    /** An apt-get whose install puts stand-ins for what it installs on the PATH. */
    private void aptGet(int exit) throws IOException {
        standIn("apt-get", "echo \"apt-get $* DEBIAN_FRONTEND=$DEBIAN_FRONTEND\" >> " + calls + "\n"
                + "[ " + exit + " = 0 ] || exit " + exit + "\n"
                + "if [ \"$1\" = install ]; then\n"
                + "  for p in \"$@\"; do case $p in\n"
                + "    chromium) f=chromium;; chromium-driver) f=chromedriver;; pgbouncer) f=pgbouncer;; *) continue;;\n"
                + "  esac; printf '#!/bin/sh\\n' > " + bin + "/$f; /bin/chmod +x " + bin + "/$f; done\n"
                + "fi");
    }

    private void standIn(String name, String body) throws IOException {
        executable(bin.resolve(name), body);
    }

    private static Path executable(Path file, String body) throws IOException {
        Files.writeString(file, "#!/bin/bash\n" + body + "\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }
}
