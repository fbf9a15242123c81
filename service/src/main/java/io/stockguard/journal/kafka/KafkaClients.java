package io.stockguard.journal.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The configuration of every Kafka client the full tier creates (the journal's producer, the
 * database writer's consumer, the admin client), and how the operator's
 * {@code stockguard.kafka.properties} join it. Three layers, each overriding the one before:
 *
 * <ol>
 * <li>the service's tuning defaults (backoffs, session and poll intervals, admin timeouts);
 * <li>the passthrough ({@code stockguard.kafka.properties}): security, TLS, SASL, client ids,
 *     tuning; every entry goes to every client, and a key one kind of client does not know is
 *     ignored by it (Kafka logs it as unused);
 * <li>the guarantees ({@link #GUARANTEES}): what the journal's correctness depends on, or what a
 *     {@code stockguard.kafka.*} setting decides. The passthrough may not name them (refused at
 *     start-up, see {@link #refusals}), and they are put last, so they would win even if it did.
 * </ol>
 */
final class KafkaClients {

    static final String PREFIX = "stockguard.kafka.properties";
    /** Far more than any real security setup needs; a bound on what is copied into every client. */
    static final int ENTRIES_MAX = 64;
    static final int KEY_LENGTH_MAX = 200;
    /** Room for an inline PEM certificate chain ({@code ssl.keystore.certificate.chain}); a CA bundle belongs in a file. */
    static final int VALUE_LENGTH_MAX = 64 * 1024;

    /**
     * The keys the passthrough may not set, each with why: the message an operator reads when the
     * service refuses to start.
     */
    static final Map<String, String> GUARANTEES = guarantees();
    /**
     * Guarantees kept by leaving the key out: no transactional id (the journal never begins a
     * transaction) and no static group membership (one id shared by every instance).
     */
    static final Set<String> LEFT_UNSET = Set.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG,
            ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);

    private final Map<String, Object> producer;
    private final Map<String, Object> consumer;
    private final Map<String, Object> admin;
    private final Set<String> unknownKeys;

    /**
     * Builds the three configurations. A value Kafka cannot read stops the start here, naming its
     * key: the producer and the admin client are built at start-up, where Kafka checks their
     * configuration itself, but the writer builds its consumer on its own thread, where a bad value
     * would only be retried forever.
     */
    KafkaClients(KafkaProperties properties) {
        Map<String, String> passthrough = properties.properties();
        this.producer = merge(producerDefaults(), passthrough, producerGuarantees(properties));
        this.consumer = merge(consumerDefaults(), passthrough, consumerGuarantees(properties));
        this.admin = merge(adminDefaults(), passthrough, adminGuarantees(properties));
        try {
            new ConsumerConfig(consumer, false) {
            };
        } catch (ConfigException e) {
            throw new IllegalArgumentException(PREFIX + ": " + e.getMessage(), e);
        }
        Set<String> known = new TreeSet<>(ProducerConfig.configNames());
        known.addAll(ConsumerConfig.configNames());
        known.addAll(AdminClientConfig.configNames());
        Set<String> unknown = new TreeSet<>(passthrough.keySet());
        unknown.removeAll(known);
        this.unknownKeys = Collections.unmodifiableSet(unknown);
    }

    Map<String, Object> producer() {
        return producer;
    }

    Map<String, Object> consumer() {
        return consumer;
    }

    Map<String, Object> admin() {
        return admin;
    }

    /**
     * Passthrough keys no Kafka client knows: passed on all the same (a plug-in such as a login
     * callback handler may read its own), but more often a misspelling worth a warning.
     */
    Set<String> unknownKeys() {
        return unknownKeys;
    }

    /**
     * What is wrong with a passthrough map, one message per problem naming its key (never its
     * value, which may be a password); empty when it may be used.
     */
    static List<String> refusals(Map<String, String> passthrough) {
        List<String> refusals = new ArrayList<>();
        if (passthrough.size() > ENTRIES_MAX) {
            refusals.add(PREFIX + " has " + passthrough.size() + " entries; at most " + ENTRIES_MAX);
        }
        for (var entry : new TreeMap<>(passthrough).entrySet()) {
            String key = entry.getKey();
            if (key.isBlank() || key.length() > KEY_LENGTH_MAX) {
                refusals.add(PREFIX + " has a key that is blank or longer than " + KEY_LENGTH_MAX + " characters");
                continue;
            }
            String why = GUARANTEES.get(key);
            if (why != null) {
                refusals.add(PREFIX + "." + key + " cannot be set: " + why);
            }
            if (entry.getValue() != null && entry.getValue().length() > VALUE_LENGTH_MAX) {
                refusals.add(PREFIX + "." + key + " is longer than " + VALUE_LENGTH_MAX
                        + " characters; point to a file instead (e.g. ssl.truststore.location)");
            }
        }
        return refusals;
    }

    private static Map<String, Object> merge(Map<String, Object> defaults, Map<String, String> passthrough,
            Map<String, Object> guarantees) {
        Map<String, Object> config = new HashMap<>(defaults);
        config.putAll(passthrough);
        config.putAll(guarantees);
        config.keySet().removeAll(LEFT_UNSET);
        return Collections.unmodifiableMap(config);
    }

    private static Map<String, Object> producerDefaults() {
        return Map.of(
                ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 50,
                ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1_000);
    }

    private static Map<String, Object> producerGuarantees(KafkaProperties properties) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, properties.bootstrapServers());
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
        config.put(ProducerConfig.RETRIES_CONFIG, Integer.MAX_VALUE);
        config.put(ProducerConfig.LINGER_MS_CONFIG, (int) properties.linger().toMillis());
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) properties.produceTimeout().toMillis());
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) properties.requestTimeout().toMillis());
        // Waiting for metadata or buffer space counts against the same bound as the acknowledgement.
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, properties.produceTimeout().toMillis());
        return config;
    }

    private static Map<String, Object> consumerDefaults() {
        return Map.of(
                // A writer retrying through a database outage keeps its partitions for this long.
                ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, (int) Duration.ofMinutes(10).toMillis(),
                // How long the writers stay without an owner after a broker pause or a coordinator
                // move: the coordinator that loads the group waits for each member it lists, and a
                // writer that has rejoined under a new id is waited for until its old session ends
                // (10 s measured in the chaos suite with 10 s here). 6 s is the least a broker
                // accepts by default (group.min.session.timeout.ms); a heartbeat a third of it.
                ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 6_000,
                ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 2_000,
                ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000,
                ConsumerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1_000);
    }

    private static Map<String, Object> consumerGuarantees(KafkaProperties properties) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, properties.bootstrapServers());
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, properties.writer().groupId());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, properties.writer().batchEventsMax());
        // The consumer's own bound; the producer's is stockguard.kafka.request-timeout.
        config.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        return config;
    }

    /**
     * The admin client (backlog, topics) backs off while no broker answers: by default it tries
     * again, and logs a rebootstrap, about 125 times a second (measured against a closed port), which
     * once filled a disk with a test's output; with these backoffs about 5 times a second.
     */
    private static Map<String, Object> adminDefaults() {
        return Map.of(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) Duration.ofSeconds(5).toMillis(),
                AdminClientConfig.RECONNECT_BACKOFF_MS_CONFIG, 500L,
                AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 5_000L,
                AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, 500L,
                AdminClientConfig.RETRY_BACKOFF_MAX_MS_CONFIG, 5_000L);
    }

    private static Map<String, Object> adminGuarantees(KafkaProperties properties) {
        return Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, properties.bootstrapServers(),
                // The admin client's own bound; the producer's is stockguard.kafka.request-timeout.
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Duration.ofSeconds(3).toMillis());
    }

    /**
     * Every key some client's guarantees set or leave out: exactly the keys of {@link #GUARANTEES}
     * (a test holds them equal, so a new guarantee cannot go without its refusal).
     */
    static Set<String> guaranteedKeys(KafkaProperties properties) {
        Set<String> keys = new TreeSet<>(LEFT_UNSET);
        keys.addAll(producerGuarantees(properties).keySet());
        keys.addAll(consumerGuarantees(properties).keySet());
        keys.addAll(adminGuarantees(properties).keySet());
        return keys;
    }

    private static Map<String, String> guarantees() {
        Map<String, String> why = new LinkedHashMap<>();
        why.put("bootstrap.servers", "use stockguard.kafka.bootstrap-servers");
        String codec = "the journal encodes and decodes its events itself";
        why.put("key.serializer", codec);
        why.put("value.serializer", codec);
        why.put("key.deserializer", codec);
        why.put("value.deserializer", codec);
        why.put("acks", "an event is acknowledged only once every in-sync replica has it (acks=all)");
        why.put("enable.idempotence", "a retried send must not write an event twice or out of order");
        why.put("max.in.flight.requests.per.connection",
                "above 5 an idempotent producer may reorder a SKU's events");
        why.put("retries", "the idempotent producer retries until stockguard.kafka.produce-timeout");
        why.put("transactional.id", "the journal does not use Kafka transactions; with one every send fails");
        why.put("delivery.timeout.ms", "use stockguard.kafka.produce-timeout");
        why.put("max.block.ms", "a send waits at most stockguard.kafka.produce-timeout");
        why.put("request.timeout.ms",
                "use stockguard.kafka.request-timeout (the producer's; the consumer and the admin client keep their own)");
        why.put("linger.ms", "use stockguard.kafka.linger");
        why.put("group.id", "use stockguard.kafka.writer.group-id");
        why.put("group.instance.id",
                "every instance reads the same settings, and instances sharing one static member id fence each other off");
        why.put("enable.auto.commit", "offsets are committed only after the database commit");
        why.put("auto.offset.reset",
                "a new writer group starts at the earliest event, so no event written before it is skipped");
        why.put("isolation.level", "which journal events the writer sees is the service's decision");
        why.put("max.poll.records", "use stockguard.kafka.writer.batch-events-max");
        return Collections.unmodifiableMap(why);
    }
}
