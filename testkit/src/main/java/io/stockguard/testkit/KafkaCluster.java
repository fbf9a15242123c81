package io.stockguard.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

/**
 * A real Kafka (KRaft) cluster of broker processes, started and stopped by the test itself: one
 * combined node, or a dedicated controller with several brokers (three combined in-JVM nodes lose
 * their quorum on this kind of machine; separate processes with one controller do not). Being
 * processes, brokers can be killed ({@code kill -9}) and started again on the same ports and data.
 * The classes come from the test's own class path (the {@code kafka_2.13} artifact).
 */
public final class KafkaCluster implements AutoCloseable {

    private static final Duration READY_WAIT_MAX = Duration.ofSeconds(60);
    private static final int CONTROLLER_ID = 100;
    /** System property naming the class path of the broker processes (see {@link #brokerClassPath()}). */
    public static final String CLASS_PATH_PROPERTY = "stockguard.kafka.class-path";

    private final Path directory;
    private final String clusterId = Uuid.randomUuid().toString();
    private final int controllerPort;
    /** The controller (combined with broker 1 for a single node), then the brokers by id. */
    private final Map<Integer, Node> nodes = new LinkedHashMap<>();
    /** Every port handed to a listener of this cluster, so that no two share one. */
    private final Set<Integer> portsGiven = new HashSet<>();
    private final int brokerCount;
    private int fixedBrokerPort;
    /** The one login a broker's second listener accepts, or null for none. */
    private PlainLogin plainLogin;
    /** The certificates of a broker's TLS listener (which also demands a client certificate), or null for none. */
    private TestCertificates tls;

    /** A SASL/PLAIN user name and password. */
    public record PlainLogin(String username, String password) {

        /** The client settings that log in with it on a SASL_PLAINTEXT listener. */
        public Map<String, String> clientProperties() {
            return Map.of("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "PLAIN", "sasl.jaas.config",
                    "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + username
                            + "\" password=\"" + password + "\";");
        }
    }

    private KafkaCluster(Path directory, int brokerCount) {
        this.directory = directory;
        this.brokerCount = brokerCount;
        this.controllerPort = freePort();
    }

    /** One node that is both broker and controller. */
    public static KafkaCluster single() {
        return start(1);
    }

    /** One node that is both broker and controller, its broker on a fixed port (for a local trial). */
    public static KafkaCluster single(int brokerPort) {
        try {
            KafkaCluster cluster = new KafkaCluster(Files.createTempDirectory("stockguard-kafka-"), 1);
            cluster.fixedBrokerPort = brokerPort;
            cluster.launch();
            return cluster;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start Kafka", e);
        }
    }

    /**
     * One node that is both broker and controller and, beside its plain listener (which the test
     * kit itself uses), a SASL_PLAINTEXT one ({@link #saslBootstrapServers()}) that serves only
     * clients logging in as {@code login} with SASL/PLAIN.
     */
    public static KafkaCluster singleWithPlainLogin(PlainLogin login) {
        try {
            KafkaCluster cluster = new KafkaCluster(Files.createTempDirectory("stockguard-kafka-"), 1);
            cluster.plainLogin = login;
            cluster.launch();
            return cluster;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start Kafka", e);
        }
    }

    /**
     * One node that is both broker and controller and, beside its plain listener (which the test
     * kit itself uses), a TLS one ({@link #tlsBootstrapServers()}) with a server certificate of
     * {@code certificates}' CA that serves only clients showing a certificate of that CA too
     * (mutual TLS); {@link #tlsClientProperties(TestCertificates)} are such a client's settings.
     */
    public static KafkaCluster singleWithMutualTls(TestCertificates certificates) {
        try {
            KafkaCluster cluster = new KafkaCluster(Files.createTempDirectory("stockguard-kafka-"), 1);
            cluster.tls = certificates;
            cluster.launch();
            return cluster;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start Kafka", e);
        }
    }

    /** A Kafka client's settings for the TLS listener: trust the test CA, show the client certificate. */
    public static Map<String, String> tlsClientProperties(TestCertificates certificates) {
        return Map.of("security.protocol", "SSL", "ssl.truststore.type", "PEM", "ssl.truststore.location",
                certificates.caCertificate().toString(), "ssl.keystore.type", "PEM", "ssl.keystore.location",
                certificates.clientKeyStore().toString());
    }

    /** A dedicated controller and {@code brokers} brokers. */
    public static KafkaCluster start(int brokers) {
        try {
            KafkaCluster cluster = new KafkaCluster(Files.createTempDirectory("stockguard-kafka-"), brokers);
            cluster.launch();
            return cluster;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start Kafka", e);
        }
    }

    public String bootstrapServers() {
        List<String> servers = new ArrayList<>();
        nodes.forEach((id, node) -> {
            if (node.brokerPort > 0) {
                servers.add("127.0.0.1:" + node.brokerPort);
            }
        });
        return String.join(",", servers);
    }

    /** The brokers' TLS listeners (only for {@link #singleWithMutualTls}). */
    public String tlsBootstrapServers() {
        List<String> servers = new ArrayList<>();
        nodes.forEach((id, node) -> {
            if (node.tlsPort > 0) {
                servers.add("127.0.0.1:" + node.tlsPort);
            }
        });
        if (servers.isEmpty()) {
            throw new IllegalStateException("this cluster has no TLS listener");
        }
        return String.join(",", servers);
    }

    /** The brokers' SASL/PLAIN listeners (only for {@link #singleWithPlainLogin}). */
    public String saslBootstrapServers() {
        List<String> servers = new ArrayList<>();
        nodes.forEach((id, node) -> {
            if (node.saslPort > 0) {
                servers.add("127.0.0.1:" + node.saslPort);
            }
        });
        if (servers.isEmpty()) {
            throw new IllegalStateException("this cluster has no SASL listener");
        }
        return String.join(",", servers);
    }

    public int brokerCount() {
        return brokerCount;
    }

    /** Kills broker {@code id} (1-based) without warning. */
    public void killBroker(int id) {
        node(id).kill();
    }

    /** Starts a killed or stopped broker again, on its ports and its data. */
    public void startBroker(int id) {
        node(id).start();
        awaitBrokers(liveBrokers());
    }

    /** Kills every broker (the controller stays). */
    public void killAllBrokers() {
        for (int id = 1; id <= brokerCount; id++) {
            killBroker(id);
        }
    }

    public void startAllBrokers() {
        for (int id = 1; id <= brokerCount; id++) {
            if (!node(id).isRunning()) {
                node(id).start();
            }
        }
        awaitBrokers(brokerCount);
    }

    /**
     * Stops every node (brokers and controller) answering, without closing a connection
     * ({@code kill -STOP}), until {@link #resumeAll()}.
     */
    public void pauseAll() {
        Signals.pause(pids());
    }

    public void resumeAll() {
        Signals.resume(pids());
    }

    private List<Long> pids() {
        List<Long> pids = new ArrayList<>();
        nodes.values().forEach(node -> {
            if (node.isRunning()) {
                pids.add(node.process.pid());
            }
        });
        return pids;
    }

    /** Admin client properties for this cluster. */
    public Properties clientProperties() {
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        return properties;
    }

    private Node node(int id) {
        Node node = brokerCount == 1 ? nodes.get(1) : nodes.get(id);
        if (node == null || node.brokerPort == 0) {
            throw new IllegalArgumentException("no broker " + id);
        }
        return node;
    }

    private int liveBrokers() {
        return (int) nodes.values().stream().filter(n -> n.brokerPort > 0 && n.isRunning()).count();
    }

    private void launch() throws IOException {
        if (brokerCount == 1) {
            nodes.put(1, new Node(1, "broker,controller", fixedBrokerPort > 0 ? fixedBrokerPort : freePort()));
        } else {
            nodes.put(CONTROLLER_ID, new Node(CONTROLLER_ID, "controller", 0));
            for (int id = 1; id <= brokerCount; id++) {
                nodes.put(id, new Node(id, "broker", freePort()));
            }
        }
        for (Node node : nodes.values()) {
            node.format();
        }
        for (Node node : nodes.values()) {
            node.start();
        }
        awaitBrokers(brokerCount);
    }

    private void awaitBrokers(int expected) {
        long deadline = System.nanoTime() + READY_WAIT_MAX.toNanos();
        Properties properties = clientProperties();
        properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "2000");
        properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "3000");
        // While the brokers start, the default strategy rebootstraps (and logs it) ~125 times a second.
        properties.put(AdminClientConfig.METADATA_RECOVERY_STRATEGY_CONFIG, "none");
        while (true) {
            try (Admin admin = Admin.create(properties)) {
                int ready = admin.describeCluster().nodes().get(3, TimeUnit.SECONDS).size();
                if (ready >= expected) {
                    return;
                }
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for Kafka", e);
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Kafka did not have " + expected + " brokers within " + READY_WAIT_MAX
                        + "; logs in " + directory);
            }
            LockSupport.parkNanos(Duration.ofMillis(200).toNanos());
        }
    }

    @Override
    public void close() {
        List<Node> reversed = new ArrayList<>(nodes.values());
        java.util.Collections.reverse(reversed);
        reversed.forEach(Node::kill);
        deleteQuietly(directory);
    }

    /** One Kafka process: its configuration, data and log live in its own folder. */
    private final class Node {
        private final int id;
        private final String roles;
        private final int brokerPort;
        /** The SASL_PLAINTEXT listener's port, 0 for none. */
        private final int saslPort;
        /** The SSL listener's port, 0 for none. */
        private final int tlsPort;
        private final Path home;
        private Process process;

        Node(int id, String roles, int brokerPort) throws IOException {
            this.id = id;
            this.roles = roles;
            this.brokerPort = brokerPort;
            this.saslPort = plainLogin != null && brokerPort > 0 ? freePort() : 0;
            this.tlsPort = tls != null && brokerPort > 0 ? freePort() : 0;
            this.home = Files.createDirectories(directory.resolve("node-" + id));
            Files.writeString(home.resolve("server.properties"), properties());
        }

        private String properties() {
            int voterId = brokerCount == 1 ? 1 : CONTROLLER_ID;
            int replication = Math.min(3, brokerCount);
            StringBuilder text = new StringBuilder();
            text.append("process.roles=").append(roles).append('\n')
                    .append("node.id=").append(id).append('\n')
                    .append("controller.quorum.voters=").append(voterId).append("@127.0.0.1:").append(controllerPort)
                    .append('\n')
                    .append("controller.listener.names=CONTROLLER\n")
                    .append("listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT")
                    .append(saslPort > 0 ? ",SASL_PLAINTEXT:SASL_PLAINTEXT" : "")
                    .append(tlsPort > 0 ? ",SSL:SSL\n" : "\n")
                    .append("log.dirs=").append(home.resolve("data")).append('\n')
                    .append("offsets.topic.replication.factor=").append(replication).append('\n')
                    .append("offsets.topic.num.partitions=4\n")
                    .append("transaction.state.log.replication.factor=").append(replication).append('\n')
                    .append("transaction.state.log.min.isr=1\n")
                    .append("group.initial.rebalance.delay.ms=0\n")
                    .append("auto.create.topics.enable=false\n")
                    .append("num.network.threads=2\nnum.io.threads=2\nbackground.threads=2\n")
                    .append("log.flush.interval.messages=9223372036854775807\n");
            if (roles.contains("broker")) {
                text.append("inter.broker.listener.name=PLAINTEXT\n");
            }
            // The listeners beside the plain one: SASL_PLAINTEXT and SSL, when this cluster has them.
            String extraListeners = "";
            if (saslPort > 0) {
                extraListeners = ",SASL_PLAINTEXT://127.0.0.1:" + saslPort;
                text.append("sasl.enabled.mechanisms=PLAIN\n")
                        .append("listener.name.sasl_plaintext.plain.sasl.jaas.config=")
                        .append("org.apache.kafka.common.security.plain.PlainLoginModule required user_")
                        .append(plainLogin.username()).append("=\"").append(plainLogin.password()).append("\";\n");
            }
            if (tlsPort > 0) {
                extraListeners += ",SSL://127.0.0.1:" + tlsPort;
                text.append("listener.name.ssl.ssl.keystore.type=PEM\n")
                        .append("listener.name.ssl.ssl.keystore.location=").append(tls.serverKeyStore()).append('\n')
                        .append("listener.name.ssl.ssl.truststore.type=PEM\n")
                        .append("listener.name.ssl.ssl.truststore.location=").append(tls.caCertificate()).append('\n')
                        .append("listener.name.ssl.ssl.client.auth=required\n");
            }
            if (roles.equals("broker,controller")) {
                text.append("listeners=PLAINTEXT://127.0.0.1:").append(brokerPort).append(extraListeners)
                        .append(",CONTROLLER://127.0.0.1:").append(controllerPort).append('\n')
                        .append("advertised.listeners=PLAINTEXT://127.0.0.1:").append(brokerPort).append(extraListeners)
                        .append('\n');
            } else if (roles.equals("controller")) {
                text.append("listeners=CONTROLLER://127.0.0.1:").append(controllerPort).append('\n');
            } else {
                text.append("listeners=PLAINTEXT://127.0.0.1:").append(brokerPort).append(extraListeners).append('\n')
                        .append("advertised.listeners=PLAINTEXT://127.0.0.1:").append(brokerPort).append(extraListeners)
                        .append('\n');
            }
            return text.toString();
        }

        void format() throws IOException {
            Process format = java("kafka.tools.StorageTool", "format", "-t", clusterId, "-c",
                    home.resolve("server.properties").toString(), "--ignore-formatted")
                    .redirectOutput(home.resolve("format.log").toFile()).redirectErrorStream(true).start();
            try {
                if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
                    format.destroyForcibly();
                    throw new IllegalStateException("formatting Kafka node " + id + " failed: "
                            + Files.readString(home.resolve("format.log")));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while formatting Kafka", e);
            }
        }

        void start() {
            try {
                process = java("kafka.Kafka", home.resolve("server.properties").toString())
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(home.resolve("server.log").toFile()))
                        .redirectErrorStream(true).start();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start Kafka node " + id, e);
            }
        }

        boolean isRunning() {
            return process != null && process.isAlive();
        }

        void kill() {
            if (process != null) {
                process.destroyForcibly();
                try {
                    process.waitFor(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        private ProcessBuilder java(String mainClass, String... arguments) {
            String java = ProcessHandle.current().info().command().orElse("java");
            List<String> command = new ArrayList<>(List.of(java, "-Xms128m", "-Xmx512m", "-XX:+UseSerialGC",
                    "-XX:TieredStopAtLevel=1", "-cp", brokerClassPath(), mainClass));
            command.addAll(List.of(arguments));
            return new ProcessBuilder(command).directory(home.toFile());
        }
    }

    /**
     * The class path the broker processes run with: {@value #CLASS_PATH_PROPERTY} if set, else this
     * JVM's own. A program run as a Spring Boot jar ({@code ./stockguard bench}) has only that jar
     * on its class path, whose nested jars a plain {@code java -cp} cannot read: the launcher gives
     * it the testkit's class path instead ({@code testkit/target/classpath.txt}).
     */
    private static String brokerClassPath() {
        String configured = System.getProperty(CLASS_PATH_PROPERTY, "");
        return configured.isBlank() ? System.getProperty("java.class.path") : configured;
    }

    /**
     * A port free now and not yet given to another listener of this cluster: the kernel may hand
     * out a port again once the probe socket closes, and two listeners of one cluster on one port
     * fail the broker's start ("Address already in use").
     */
    private int freePort() {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = RedisServer.freePort();
            if (portsGiven.add(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port unlike " + portsGiven + " in 100 tries");
    }

    private static void deleteQuietly(Path root) {
        try (var paths = Files.walk(root)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // A leftover temp folder is harmless.
        }
    }
}
