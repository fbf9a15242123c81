package io.stockguard.chaos.workload;

import io.stockguard.chaos.history.Customers;
import io.stockguard.chaos.history.History;
import io.stockguard.chaos.history.Op;
import io.stockguard.client.OrderOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

/**
 * One order service's thread: reserves (one line on the hot SKU, or one or two over the small
 * ones), confirms, cancels, reads, restocks and adjusts, each recorded in the history. A request
 * that gets no answer or a 503 is retried with the same ids on the next instance, as the API
 * asks order services to do. Its choices come from its own seeded random source.
 *
 * <p>Some order services send their reservations, confirms, cancels and order reads through
 * StockGuard's Java client ({@link JavaClientCalls}), which retries on one instance by itself;
 * only when it gives up unresolved does the thread go on to the next instance. The others, and
 * every call the client does not offer (reserve-and-confirm, stock reads with buckets, restock,
 * adjust), speak HTTP directly, one attempt per history entry.
 *
 * <p>Its pace and mix follow the run's {@link Traffic}: in a chaos run one steady mix; in the
 * demo, the phase of the peak it is in. A shopper thread is not an order service: it only queries
 * stock or places new orders, in the phases that ask it to.
 */
final class Client implements Runnable {

    /**
     * How long an order service keeps retrying one operation that has no definite answer yet (with
     * the same id, as the API asks): longer than any fault is held plus the 10 s the liveness rule
     * allows after its heal, so that an operation left in doubt shows as one, with its length.
     */
    static final Duration IN_DOUBT_RETRY_MAX = Duration.ofSeconds(45);
    /** The longest one request may take (the API's timeout in the chaos suite is shorter). */
    private static final Duration REQUEST_TIMEOUT_MAX = Duration.ofSeconds(10);
    /** Reservations a client remembers for replays. */
    private static final int SENT_KEPT_MAX = 200;
    private static final Duration BACKOFF_FIRST = Duration.ofMillis(100);
    private static final Duration BACKOFF_MAX = Duration.ofSeconds(2);
    /** Holds kept short enough to expire during a run, and long ones that never do. */
    private static final int SHORT_TTL_MIN_SECONDS = 4;
    private static final int SHORT_TTL_MAX_SECONDS = 10;
    static final int SHORT_TTL_MAX = SHORT_TTL_MAX_SECONDS;
    private static final long LONG_TTL_SECONDS = 3_600;
    /**
     * An extension asks for 10 to 19 s beyond the longest short hold: long enough that an order
     * read as expired before then shows a lost extension, short enough that a run's final reads,
     * which wait for every hold ending soon to end, do not wait long. Holds of 30 to 70 s kept each
     * run of the suite idle for about a minute after its load.
     */
    private static final int EXTENDED_HOLD_MIN_SECONDS = 10;
    private static final int EXTENDED_HOLD_SPREAD_SECONDS = 10;
    /** Keeps a shopper thread's random choices apart from those of the order service of its number. */
    private static final int SHOPPER_SEED_OFFSET = 500;
    /** How often an idle shopper thread looks whether its phase has come. */
    private static final Duration SHOPPER_IDLE = Duration.ofMillis(200);

    private final String process;
    private final Random random;
    private final List<Target> instances;
    private final Api api;
    /** Null for an order service that speaks HTTP directly. */
    private final JavaClientCalls javaClient;
    private final History history;
    private final Catalogue catalogue;
    private final String orderPrefix;
    private volatile boolean stopping;
    private int next;
    private int instanceTurn;
    /** The bodies of this client's latest reservations, by order id, for replays. */
    private final Map<String, Map<String, Object>> sent = new LinkedHashMap<>();
    /** The client's own orders and the state its last acknowledged answer gave them. */
    private final Map<String, String> orders = new LinkedHashMap<>();

    private final long startNanos;
    private final Traffic traffic;
    /** A stream of shoppers doing what the phase says (see {@link Traffic.Shoppers}); not an order service. */
    private final boolean shopper;
    private Traffic.Phase phase = Traffic.Phase.STEADY;

    Client(int id, long seed, List<Target> instances, Api api, JavaClientCalls javaClient, History history,
            Catalogue catalogue, long startNanos, Traffic traffic, boolean shopper) {
        this.startNanos = startNanos;
        this.traffic = traffic;
        this.shopper = shopper;
        this.process = (shopper ? "cs" : "c") + id + (javaClient == null ? "" : "-java");
        this.javaClient = javaClient;
        this.random = new Random(seed * 1_000 + id + (shopper ? SHOPPER_SEED_OFFSET : 0));
        this.instances = instances;
        this.api = api;
        this.history = history;
        this.catalogue = catalogue;
        this.orderPrefix = "o" + seed + "-" + (shopper ? "s" : "") + id + "-";
        this.instanceTurn = id;
    }

    void stop() {
        stopping = true;
    }

    @Override
    public void run() {
        while (!stopping) {
            phase = traffic.at(Duration.ofNanos(System.nanoTime() - startNanos));
            if (shopper) {
                switch (phase.shoppers()) {
                    case QUERY -> readSku(queriedSku());
                    case ORDER -> reserve(newOrder(), shopperLines());
                    case IDLE -> LockSupport.parkNanos(SHOPPER_IDLE.toNanos());
                }
                continue;
            }
            if (phase.queryPerMille() > 0 && random.nextInt(1_000) < phase.queryPerMille()) {
                readSku(queriedSku());
            } else {
                step(random.nextInt(1_000));
            }
            if (phase.think().isPositive()) {
                LockSupport.parkNanos(phase.think().toNanos());
            }
        }
    }

    /** A stock query of the phase: the hot SKU's page, or one of the others. */
    private String queriedSku() {
        return random.nextInt(1_000) < phase.hotPerMille() ? catalogue.hot()
                : catalogue.small().get(random.nextInt(catalogue.small().size()));
    }

    private void step(int roll) {
        if (roll < 500) {
            reserve(newOrder());
        } else if (roll < 520) {
            reserveTwice(newOrder());
        } else if (roll < 540) {
            replayReserve();
        } else if (roll < 690) {
            pickOrder("RESERVED").ifPresentOrElse(this::confirm, () -> reserve(newOrder()));
        } else if (roll < 800) {
            pickOrder(random.nextBoolean() ? "RESERVED" : "CONFIRMED").ifPresentOrElse(this::cancel,
                    () -> reserve(newOrder()));
        } else if (roll < 810) {
            String order = newOrder();
            cancel(order);
            reserve(order);
        } else if (roll < 830) {
            pickOrder("RESERVED").ifPresentOrElse(this::extend, () -> readSku(randomSku()));
        } else if (roll < 920) {
            readSku(randomSku());
        } else if (roll < 970) {
            pickOrder(null).ifPresentOrElse(this::readOrder, () -> readSku(catalogue.hot()));
        } else if (roll < 990) {
            restock(catalogue.small().get(random.nextInt(catalogue.small().size())), 5 + random.nextInt(16));
        } else {
            adjust(catalogue.small().get(random.nextInt(catalogue.small().size())), random.nextInt(14) - 3);
        }
    }

    private String newOrder() {
        return orderPrefix + (next++);
    }

    private java.util.Optional<String> pickOrder(String state) {
        List<String> candidates = new ArrayList<>();
        orders.forEach((order, known) -> {
            if (state == null || state.equals(known)) {
                candidates.add(order);
            }
        });
        return candidates.isEmpty() ? java.util.Optional.empty()
                : java.util.Optional.of(candidates.get(random.nextInt(candidates.size())));
    }

    private String randomSku() {
        return random.nextInt(3) == 0 ? catalogue.hot()
                : catalogue.small().get(random.nextInt(catalogue.small().size()));
    }

    /** A new shopper's order: the everyday item when the catalogue has one, else as an order service's. */
    private List<Op.Line> shopperLines() {
        return catalogue.everyday() == null ? orderLines()
                : List.of(new Op.Line(catalogue.everyday(), 1 + random.nextInt(2)));
    }

    private void reserve(String order) {
        reserve(order, orderLines());
    }

    /** An order service's order: one line of the hot SKU, or one or two of the small ones. */
    private List<Op.Line> orderLines() {
        List<Op.Line> lines = new ArrayList<>();
        if (random.nextInt(1_000) < phase.hotPerMille()) {
            lines.add(new Op.Line(catalogue.hot(), 1 + random.nextInt(2)));
        } else {
            List<String> small = new ArrayList<>(catalogue.small());
            java.util.Collections.shuffle(small, random);
            if (System.nanoTime() - startNanos >= Catalogue.LATE_FIRST_ORDER.toNanos() && random.nextInt(5) == 0) {
                small.addFirst(catalogue.late());
            }
            int count = 1 + random.nextInt(2);
            for (int i = 0; i < count; i++) {
                lines.add(new Op.Line(small.get(i), 1 + random.nextInt(3)));
            }
        }
        return lines;
    }

    /**
     * A reservation sent twice at once with the same order id and body (a client's retry racing its
     * original, a double submit): the second, recorded as process {@code <client>-twin}, runs on
     * another thread, on the next instance. Both answers must be the same order.
     */
    private void reserveTwice(String order) {
        List<Op.Line> lines = orderLines();
        Map<String, Object> body = reserveBody(order, lines, random.nextInt(10) == 0);
        Op template = reserveTemplate(process + "-twin", order, lines, body);
        int twinTurn = instanceTurn + 1;
        Thread twin = Thread.ofVirtual().start(() -> attemptFrom(twinTurn, template, body));
        remember(order, attempt(reserveTemplate(process, order, lines, body), "POST", "/api/v1/reservations", body));
        try {
            twin.join(IN_DOUBT_RETRY_MAX.toMillis() + REQUEST_TIMEOUT_MAX.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One of this client's earlier reservations sent again, exactly as it was: it must be answered as a replay. */
    private void replayReserve() {
        if (sent.isEmpty()) {
            reserve(newOrder());
            return;
        }
        List<String> known = new ArrayList<>(sent.keySet());
        String order = known.get(random.nextInt(known.size()));
        Map<String, Object> body = sent.get(order);
        @SuppressWarnings("unchecked")
        List<Op.Line> lines = (List<Op.Line>) body.get("lines");
        remember(order, attempt(reserveTemplate(process, order, lines, body), "POST", "/api/v1/reservations", body));
    }

    private Map<String, Object> reserveBody(String order, List<Op.Line> lines, boolean commit) {
        long ttl = commit ? 0 : random.nextInt(10) < 3
                ? SHORT_TTL_MIN_SECONDS + random.nextInt(SHORT_TTL_MAX_SECONDS - SHORT_TTL_MIN_SECONDS + 1)
                : LONG_TTL_SECONDS;
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("orderId", order);
        body.put("lines", lines);
        String customer = Customers.of(order);
        if (customer != null) {
            body.put("customerId", customer);
        }
        if (commit) {
            body.put("commit", true);
        } else {
            body.put("ttlSeconds", ttl);
        }
        if (sent.size() >= SENT_KEPT_MAX) {
            sent.remove(sent.keySet().iterator().next());
        }
        sent.put(order, body);
        return body;
    }

    private static Op reserveTemplate(String process, String order, List<Op.Line> lines, Map<String, Object> body) {
        boolean commit = Boolean.TRUE.equals(body.get("commit"));
        Long ttl = commit ? null : ((Number) body.get("ttlSeconds")).longValue();
        return new OpBuilder(process, "reserve").order(order).lines(lines).commit(commit).ttl(ttl).build();
    }

    private void reserve(String order, List<Op.Line> lines) {
        boolean commit = random.nextInt(10) == 0;
        Map<String, Object> body = reserveBody(order, lines, commit);
        long ttl = commit ? 0 : ((Number) body.get("ttlSeconds")).longValue();
        String customer = Customers.of(order);
        Op template = reserveTemplate(process, order, lines, body);
        Op done = javaClient != null && !commit
                ? throughJavaClient(template, instance -> javaClient.reserve(instance, customer, order, lines, ttl))
                : attempt(template, "POST", "/api/v1/reservations", body);
        remember(order, done);
    }

    private void confirm(String order) {
        Op template = op("confirm").order(order).build();
        remember(order, javaClient != null
                ? throughJavaClient(template, instance -> javaClient.confirm(instance, order))
                : attempt(template, "POST", "/api/v1/reservations/" + order + "/confirm", null));
    }

    private void cancel(String order) {
        Op template = op("cancel").order(order).build();
        remember(order, javaClient != null
                ? throughJavaClient(template, instance -> javaClient.cancel(instance, order))
                : attempt(template, "POST", "/api/v1/reservations/" + order + "/cancel", null));
    }

    /**
     * Asks for a hold longer than any short TTL, counted from the reserve: an order extended near the
     * end of the run is still held at the final reads, where an extension lost would show as EXPIRED.
     */
    private void extend(String order) {
        long hold = SHORT_TTL_MAX_SECONDS + EXTENDED_HOLD_MIN_SECONDS + random.nextInt(EXTENDED_HOLD_SPREAD_SECONDS);
        Op template = op("extend").order(order).ttl(hold).build();
        remember(order, javaClient != null
                ? throughJavaClient(template, instance -> javaClient.extend(instance, order, hold))
                : attempt(template, "POST", "/api/v1/reservations/" + order + "/extend", Map.of("ttlSeconds", hold)));
    }

    private void readOrder(String order) {
        Op template = op("read-order").order(order).build();
        if (javaClient != null) {
            throughJavaClient(template, instance -> javaClient.read(instance, order));
        } else {
            attempt(template, "GET", "/api/v1/reservations/" + order, null);
        }
    }

    private void readSku(String sku) {
        attempt(op("read-sku").sku(sku).build(), "GET", "/api/v1/skus/" + sku, null);
    }

    private void restock(String sku, long qty) {
        String request = orderPrefix + "r" + (next++);
        attempt(op("restock").sku(sku).qty(qty).request(request).build(), "POST", "/api/v1/skus/" + sku + "/restock",
                Map.of("qty", qty, "requestId", request));
    }

    private void adjust(String sku, long delta) {
        String request = orderPrefix + "a" + (next++);
        attempt(op("adjust").sku(sku).qty(delta).request(request).build(), "POST",
                "/api/v1/admin/skus/" + sku + "/adjust",
                Map.of("delta", delta, "reason", "chaos: stock count correction", "requestId", request));
    }

    private void remember(String order, Op done) {
        if (done.type() == Op.Type.OK && done.state() != null) {
            orders.put(order, done.state());
        } else if (!orders.containsKey(order) && done.type() != Op.Type.FAIL) {
            orders.put(order, "UNKNOWN");
        }
    }

    /**
     * Sends the request until it gets a definite answer or runs out of attempts: each attempt is
     * an invocation and a completion in the history. Returns the last completion.
     */
    private Op attempt(Op template, String method, String path, Object body) {
        Duration backoff = BACKOFF_FIRST;
        Op completion = null;
        long deadline = System.nanoTime() + IN_DOUBT_RETRY_MAX.toNanos();
        for (int attempt = 1; attempt == 1 || System.nanoTime() < deadline; attempt++) {
            Target instance = instances.get(Math.floorMod(instanceTurn++, instances.size()));
            Op invoked = history.invoke(template.withInstance(instance.name()));
            boolean admin = template.f().equals("adjust");
            Api.Answer answer = api.call(instance.baseUrl(), method, path, body, admin);
            Op.Type type = Answers.type(answer);
            completion = history.complete(invoked, type, op -> Answers.describe(op, answer));
            if (!Answers.retryable(answer) || stopping) {
                return completion;
            }
            Duration wait = Answers.retryAfter(answer).orElse(backoff);
            LockSupport.parkNanos(Math.min(wait.toNanos(), BACKOFF_MAX.toNanos()));
            backoff = backoff.multipliedBy(2).compareTo(BACKOFF_MAX) > 0 ? BACKOFF_MAX : backoff.multipliedBy(2);
        }
        return completion;
    }

    /**
     * As {@link #attempt}, from a thread of its own (the twin of a reservation): the first attempt on
     * the instance {@code turn} names, so that it races the original on another instance; its retries
     * go round the instances as any client's do behind a load balancer, so a twin whose instance was
     * killed is answered by another, not left in doubt until the instance comes back.
     */
    private void attemptFrom(int turn, Op template, Object body) {
        Duration backoff = BACKOFF_FIRST;
        long deadline = System.nanoTime() + IN_DOUBT_RETRY_MAX.toNanos();
        for (int attempt = 1; attempt == 1 || System.nanoTime() < deadline; attempt++) {
            Target instance = instances.get(Math.floorMod(turn++, instances.size()));
            Op invoked = history.invoke(template.withInstance(instance.name()));
            Api.Answer answer = api.call(instance.baseUrl(), "POST", "/api/v1/reservations", body, false);
            history.complete(invoked, Answers.type(answer), op -> Answers.describe(op, answer));
            if (!Answers.retryable(answer) || stopping) {
                return;
            }
            Duration wait = Answers.retryAfter(answer).orElse(backoff);
            LockSupport.parkNanos(Math.min(wait.toNanos(), BACKOFF_MAX.toNanos()));
            backoff = backoff.multipliedBy(2).compareTo(BACKOFF_MAX) > 0 ? BACKOFF_MAX : backoff.multipliedBy(2);
        }
    }

    /**
     * One call through the Java client per instance, until one ends with a definite outcome: each
     * call is an invocation and a completion in the history, whatever its own retries were.
     */
    private Op throughJavaClient(Op template, Function<Target, OrderOutcome> call) {
        Op completion = null;
        long deadline = System.nanoTime() + IN_DOUBT_RETRY_MAX.toNanos();
        for (int calls = 1; calls == 1 || System.nanoTime() < deadline; calls++) {
            Target instance = instances.get(Math.floorMod(instanceTurn++, instances.size()));
            Op invoked = history.invoke(template.withInstance(instance.name()));
            OrderOutcome outcome = call.apply(instance);
            completion = history.complete(invoked, JavaClientCalls.type(outcome),
                    op -> JavaClientCalls.describe(op, outcome));
            if (JavaClientCalls.ended(outcome) || stopping) {
                return completion;
            }
        }
        return completion;
    }

    private OpBuilder op(String f) {
        return new OpBuilder(process, f);
    }

    /** Builds an operation's template; index, type and time are set when it is recorded. */
    static final class OpBuilder {
        private final String process;
        private final String f;
        private String order;
        private List<Op.Line> lines;
        private Boolean commit;
        private Long ttl;
        private String sku;
        private Long qty;
        private String request;

        OpBuilder(String process, String f) {
            this.process = process;
            this.f = f;
        }

        OpBuilder order(String value) {
            order = value;
            return this;
        }

        OpBuilder lines(List<Op.Line> value) {
            lines = value;
            return this;
        }

        OpBuilder commit(boolean value) {
            commit = value;
            return this;
        }

        OpBuilder ttl(Long value) {
            ttl = value;
            return this;
        }

        OpBuilder sku(String value) {
            sku = value;
            return this;
        }

        OpBuilder qty(long value) {
            qty = value;
            return this;
        }

        OpBuilder request(String value) {
            request = value;
            return this;
        }

        Op build() {
            return new Op(0, process, Op.Type.INVOKE, f, 0, null, order, lines, commit, ttl, sku, qty, request, null,
                    null, null, null, null, null, null);
        }
    }
}
