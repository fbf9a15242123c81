package io.stockguard.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway certificate authority for TLS tests, made with {@code openssl}: a CA, a server
 * certificate for {@code 127.0.0.1} and {@code localhost} signed by it, and a client certificate
 * (for mutual TLS) signed by it too. Everything is PEM; private keys are unencrypted PKCS#8, which
 * both Kafka's PEM key stores and Redis read. Valid for two days: a test's certificates never
 * outlive it.
 */
public final class TestCertificates {

    private static final int VALID_DAYS = 2;

    private final Path directory;

    private TestCertificates(Path directory) {
        this.directory = directory;
    }

    /** A new CA with its server and client certificates, in a folder of their own. */
    public static TestCertificates create() {
        try {
            Path directory = Files.createTempDirectory("stockguard-tls-");
            TestCertificates certificates = new TestCertificates(directory);
            certificates.make();
            return certificates;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make test certificates", e);
        }
    }

    /** The CA's certificate: what a client (or server, for client certificates) trusts. */
    public Path caCertificate() {
        return directory.resolve("ca.pem");
    }

    public Path serverCertificate() {
        return directory.resolve("server.pem");
    }

    public Path serverKey() {
        return directory.resolve("server.key");
    }

    public Path clientCertificate() {
        return directory.resolve("client.pem");
    }

    public Path clientKey() {
        return directory.resolve("client.key");
    }

    /** The server's key and certificate chain in one PEM file, as Kafka's PEM key store takes them. */
    public Path serverKeyStore() {
        return directory.resolve("server-store.pem");
    }

    /** The client's key and certificate chain in one PEM file. */
    public Path clientKeyStore() {
        return directory.resolve("client-store.pem");
    }

    /** A certificate authority nobody else trusts, for checking that a client refuses a stranger. */
    public Path strangerCaCertificate() {
        return directory.resolve("stranger-ca.pem");
    }

    private void make() throws IOException {
        String days = Integer.toString(VALID_DAYS);
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", days,
                "-subj", "/CN=StockGuard test CA");
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "stranger-ca.key", "-out",
                "stranger-ca.pem", "-days", days, "-subj", "/CN=Some other CA");
        sign("server", "/CN=localhost", "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n");
        sign("client", "/CN=stockguard", "extendedKeyUsage=clientAuth\n");
        for (String name : List.of("server", "client")) {
            Files.writeString(directory.resolve(name + "-store.pem"), Files.readString(directory.resolve(name + ".key"))
                    + Files.readString(directory.resolve(name + ".pem")));
        }
    }

    private void sign(String name, String subject, String extensions) throws IOException {
        Path ext = directory.resolve(name + ".ext");
        Files.writeString(ext, extensions);
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", name + ".rsa.key", "-out", name + ".csr", "-subj",
                subject);
        // PKCS#8, unencrypted: what Kafka's PEM key store requires.
        openssl("pkcs8", "-topk8", "-nocrypt", "-in", name + ".rsa.key", "-out", name + ".key");
        openssl("x509", "-req", "-in", name + ".csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out",
                name + ".pem", "-days", Integer.toString(VALID_DAYS), "-extfile", ext.toString());
    }

    private void openssl(String... arguments) throws IOException {
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(arguments));
        Path log = directory.resolve("openssl.log");
        Process process;
        try {
            process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new IllegalStateException("openssl makes the TLS tests' certificates and cannot be run "
                    + "(apt-get install openssl): " + e.getMessage(), e);
        }
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IllegalStateException("openssl " + String.join(" ", arguments) + " failed:\n"
                        + Files.readString(log));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while making test certificates", e);
        }
    }
}
