package io.stockguard.chaos.check;

import io.stockguard.chaos.history.Op;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Everything the history says about one SKU: its creation, changes of its total, and its reads. */
public final class SkuFacts {

    private final String skuId;
    Attempt created;
    final List<Attempt> restocks = new ArrayList<>();
    final List<Attempt> adjusts = new ArrayList<>();
    final List<Attempt> runReads = new ArrayList<>();
    Attempt finalRead;
    Attempt probe;
    Attempt buckets;
    boolean held;

    SkuFacts(String skuId) {
        this.skuId = skuId;
    }

    public String skuId() {
        return skuId;
    }

    /** Set up, read in the final phase, or held by an order at the end: the end must account for it. */
    public boolean catalogued() {
        return created != null || finalRead != null || probe != null || buckets != null || held;
    }

    /** The total set up before the load; empty when the history has no acknowledged create-sku. */
    public Optional<Long> initialTotal() {
        return Optional.ofNullable(created).filter(Attempt::acknowledged).map(a -> a.invoke().qty());
    }

    /** The per-customer limit the SKU was set up with; empty when it has none. */
    public java.util.OptionalLong limitPerCustomer() {
        Long limit = created == null || created.invoke().numbers() == null ? null
                : created.invoke().numbers().get(io.stockguard.chaos.history.Customers.LIMIT);
        return limit == null ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(limit);
    }

    public Optional<Attempt> created() {
        return Optional.ofNullable(created);
    }

    public List<Attempt> restocks() {
        return restocks;
    }

    public List<Attempt> adjusts() {
        return adjusts;
    }

    /** The clients' read-sku attempts during the run. */
    public List<Attempt> runReads() {
        return runReads;
    }

    public Optional<Attempt> finalRead() {
        return Optional.ofNullable(finalRead);
    }

    /** The final read's counters, when it was answered 2xx. */
    public Optional<Op.Stock> finalStock() {
        return finalRead().filter(Attempt::acknowledged).map(a -> a.answer().stock());
    }

    public Optional<Attempt> probe() {
        return Optional.ofNullable(probe);
    }

    public Optional<Attempt> buckets() {
        return Optional.ofNullable(buckets);
    }
}
