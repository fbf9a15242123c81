package io.stockguard.chaos.workload;

import io.stockguard.chaos.history.Customers;
import io.stockguard.chaos.history.History;
import io.stockguard.chaos.history.Op;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The catalogue's creation and the clients' load, recorded in one history. */
public final class Workload {

    /** How long the clients may take to finish the operation they are in after being told to stop. */
    private static final Duration STOP_WAIT_MAX = Duration.ofSeconds(30);

    private final List<Target> instances;
    private final Api api;
    private final History history;
    private final Catalogue catalogue;
    private final List<Client> clients = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final JavaClientCalls javaClient;

    public Workload(List<Target> instances, Api api, Duration requestTimeout, History history, Catalogue catalogue) {
        this.instances = instances;
        this.javaClient = new JavaClientCalls(instances, requestTimeout);
        this.api = api;
        this.history = history;
        this.catalogue = catalogue;
    }

    /** The longest hold a client asks for that is meant to expire during a run. */
    public static Duration shortHoldMax() {
        return Duration.ofSeconds(Client.SHORT_TTL_MAX);
    }

    /** Creates every SKU of the catalogue, each recorded as a {@code create-sku} of the setup process. */
    public void createCatalogue() {
        Target first = instances.getFirst();
        for (String sku : catalogue.all()) {
            boolean limited = sku.equals(catalogue.hot());
            Map<String, Long> numbers = limited
                    ? Map.of(Customers.LIMIT, (long) Catalogue.HOT_LIMIT_PER_CUSTOMER) : null;
            Op template = new Op(0, "setup", Op.Type.INVOKE, "create-sku", 0, first.name(), null, null, null, null, sku,
                    catalogue.totals().get(sku), null, null, null, null, null, null, numbers, null);
            Op invoked = history.invoke(template);
            Map<String, Object> body = new java.util.LinkedHashMap<>(Map.of("total", catalogue.totals().get(sku),
                    "buckets", catalogue.buckets().get(sku)));
            if (limited) {
                body.put("limitPerCustomer", Catalogue.HOT_LIMIT_PER_CUSTOMER);
            }
            Api.Answer answer = api.call(first.baseUrl(), "PUT", "/api/v1/skus/" + sku, body, false);
            history.complete(invoked, Answers.type(answer), op -> Answers.describe(op, answer));
            if (answer.status() != 201) {
                throw new IllegalStateException("creating SKU " + sku + " answered " + answer.status() + " "
                        + answer.body() + answer.error());
            }
        }
    }

    /** Starts {@code clientCount} order services, and the traffic's shopper threads, in its shape. */
    public void start(int clientCount, long seed, Traffic traffic) {
        long startNanos = System.nanoTime();
        for (int i = 0; i < clientCount; i++) {
            // Every other order service uses the Java client, so both ways of calling meet every fault.
            Client client = new Client(i, seed, instances, api, i % 2 == 1 ? javaClient : null, history, catalogue,
                    startNanos, traffic, false);
            clients.add(client);
            threads.add(Thread.ofPlatform().name("chaos-client-" + i).start(client));
        }
        for (int i = 0; i < traffic.shopperThreads(); i++) {
            Client shopper = new Client(i, seed, instances, api, null, history, catalogue, startNanos, traffic, true);
            clients.add(shopper);
            threads.add(Thread.ofPlatform().name("chaos-shoppers-" + i).start(shopper));
        }
    }

    /** Tells every client to stop and waits (bounded) for the operations they are in. */
    public void stop() {
        clients.forEach(Client::stop);
        long deadline = System.nanoTime() + STOP_WAIT_MAX.toNanos();
        for (Thread thread : threads) {
            try {
                long left = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
                thread.join(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        javaClient.close();
    }
}
