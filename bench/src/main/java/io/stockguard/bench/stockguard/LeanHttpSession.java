package io.stockguard.bench.stockguard;

import io.stockguard.bench.Contender;
import java.io.IOException;
import java.util.concurrent.atomic.LongAdder;

/** A session on StockGuard's HTTP API through {@link LeanHttp}: its socket, and buffers it reuses for every request. */
final class LeanHttpSession implements Contender.Session {

    private final LeanHttp http;
    private final LongAdder connections;
    private final StringBuilder json = new StringBuilder(128);
    private final StringBuilder skuPath = new StringBuilder(64).append(StockApi.SKUS);

    /** @param connections where the session adds the connections it opened when it closes */
    LeanHttpSession(int port, String apiKey, LongAdder connections) {
        this.http = new LeanHttp(port, apiKey);
        this.connections = connections;
    }

    @Override
    public Contender.Attempt reserve(String sku, int qty, String orderId) throws IOException {
        int status = http.post(StockApi.RESERVATIONS, StockApi.reservation(json, orderId, sku, qty));
        return StockApi.attempt(status, http.body());
    }

    @Override
    public long read(String sku) throws IOException {
        skuPath.setLength(StockApi.SKUS.length());
        int status = http.get(skuPath.append(sku).append(StockApi.AVAILABILITY));
        return StockApi.available(status, http.body());
    }

    @Override
    public void close() {
        http.close();
        connections.add(http.connections());
    }
}
