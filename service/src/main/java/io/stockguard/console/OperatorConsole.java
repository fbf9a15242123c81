package io.stockguard.console;

import io.stockguard.audit.AuditEntry;
import io.stockguard.audit.AuditLog;
import io.stockguard.audit.AuditQuery;
import io.stockguard.journal.Journal;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockOp;
import io.stockguard.hotstore.HotStore;
import io.stockguard.reservation.ReservationView;
import io.stockguard.reservation.Reservations;
import io.stockguard.reservation.SkuStockView;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;

/**
 * Reads what the console shows, from every layer: the database (source of truth), the hot store
 * where the Redis tier is on, the journal and the audit log. A layer that cannot be read is shown
 * as such, never guessed: an operator deciding at 2 a.m. must see what is known and what is not.
 */
@Service
public class OperatorConsole {

    private static final Logger log = LoggerFactory.getLogger(OperatorConsole.class);
    /** Audit actions that set a SKU's mode, by a person or by the probe. */
    private static final Set<String> MODE_ACTIONS = Set.of("FREEZE", "UNFREEZE", "THROTTLE", "UNTHROTTLE",
            "REBUILD", "HEAL");
    private static final int ALERTS_SHOWN = 20;

    private final ConsoleQueries queries;
    private final Reservations reservations;
    private final Journal journal;
    private final AuditLog audit;
    private final ObjectProvider<HotStore> hotStore;
    private final ObjectProvider<ProbeReadings> probe;
    private final ConsoleProperties properties;

    OperatorConsole(ConsoleQueries queries, Reservations reservations, Journal journal, AuditLog audit,
            ObjectProvider<HotStore> hotStore, ObjectProvider<ProbeReadings> probe, ConsoleProperties properties) {
        this.queries = queries;
        this.reservations = reservations;
        this.journal = journal;
        this.audit = audit;
        this.hotStore = hotStore;
        this.probe = probe;
        this.properties = properties;
    }

    public boolean hotTier() {
        return hotStore.getIfAvailable() != null;
    }

    public boolean skuExists(SkuId skuId) {
        return reservations.stock(skuId).isPresent();
    }

    public ConsoleProperties properties() {
        return properties;
    }

    public ConsoleViews.Overview overview(String filter, boolean soldOutOnly) {
        String cleaned = filter == null || filter.isBlank() ? null : filter.strip();
        HotStore hot = hotStore.getIfAvailable();
        ProbeReadings readings = probe.getIfAvailable();
        List<ConsoleViews.OverviewRow> rows = new ArrayList<>();
        for (ConsoleQueries.SkuRow sku : queries.skus(cleaned, soldOutOnly, properties.overviewSkusMax())) {
            SkuId id = SkuId.of(sku.skuId());
            ConsoleViews.HotComparison comparison = hot == null ? null : compare(hot, id);
            ProbeReadings.Drift drift = readings == null ? null : readings.drift(id).orElse(null);
            List<ProbeReadings.Drift> history = readings == null ? List.of()
                    : readings.driftHistory(id, properties.drift().sparklineSize());
            rows.add(new ConsoleViews.OverviewRow(sku, comparison, drift, history));
        }
        return new ConsoleViews.Overview(rows, queries.skuCount(), cleaned, soldOutOnly, hot != null,
                hot == null ? null : preheatStatus(hot), readings != null,
                readings == null ? List.of() : readings.recentAlerts(ALERTS_SHOWN), hot == null ? null : server(hot));
    }

    public Optional<ConsoleViews.SkuPage> sku(SkuId skuId) {
        Optional<SkuStockView> stock = reservations.stock(skuId);
        if (stock.isEmpty()) {
            return Optional.empty();
        }
        HotStore hot = hotStore.getIfAvailable();
        HotStore.Snapshot snapshot = null;
        String hotState = null;
        if (hot != null) {
            try {
                snapshot = hot.snapshot(skuId).orElse(null);
                hotState = snapshot == null ? ConsoleViews.HotComparison.NOT_LOADED : ConsoleViews.HotComparison.LOADED;
            } catch (RuntimeException e) {
                log.debug("cannot read {} from the hot store: {}", skuId, e.toString());
                hotState = ConsoleViews.HotComparison.UNREADABLE;
            }
        }
        List<AuditEntry> history = audit.find(new AuditQuery("sku:" + skuId, null, null, null, null,
                properties.auditPageSize()));
        List<AuditEntry> modeHistory = history.stream().filter(entry -> MODE_ACTIONS.contains(entry.action())).toList();
        ProbeReadings readings = probe.getIfAvailable();
        return Optional.of(new ConsoleViews.SkuPage(stock.get(), snapshot, hotState,
                journal.tail(skuId, properties.journalTailSize()), modeHistory, history,
                queries.anomalies(skuId, properties.journalTailSize()), hot != null, readings != null,
                readings == null ? null : readings.drift(skuId).orElse(null),
                readings == null ? List.of() : readings.driftHistory(skuId, properties.drift().historySize())));
    }

    public ConsoleViews.OrderTrace trace(OrderId orderId) {
        ConsoleQueries.ReservationRow row = queries.reservation(orderId).orElse(null);
        ReservationView served = reservations.reservation(orderId).orElse(null);
        List<StockEvent> events = journal.forOrder(orderId, properties.traceEventsMax() + 1);
        boolean truncated = events.size() > properties.traceEventsMax();
        if (truncated) {
            events = events.subList(0, properties.traceEventsMax());
        }
        List<ConsoleQueries.PendingRow> pending = queries.pending(orderId, properties.traceEventsMax());
        HotStore hot = hotStore.getIfAvailable();
        HotStore.HotOrder hotOrder = null;
        String hotState = null;
        if (hot != null) {
            try {
                hotOrder = hot.order(orderId).orElse(null);
                hotState = hotOrder == null ? "no record" : "found";
            } catch (RuntimeException e) {
                log.warn("cannot read order {} from the hot store: {}", orderId, e.toString());
                hotState = ConsoleViews.HotComparison.UNREADABLE;
            }
        }
        return new ConsoleViews.OrderTrace(orderId.value(), row, served, hotOrder, hotState, events, pending,
                steps(row, hotOrder, events, pending), traceIds(row, hotOrder, events, pending), hot != null, truncated);
    }

    private static List<ConsoleViews.TraceStep> steps(ConsoleQueries.ReservationRow row, HotStore.HotOrder hot,
            List<StockEvent> events, List<ConsoleQueries.PendingRow> pending) {
        List<ConsoleViews.TraceStep> steps = new ArrayList<>();
        if (row != null) {
            String trace = row.traceId();
            boolean tombstone = row.lines().isEmpty() && "CANCELLED".equals(row.state());
            steps.add(new ConsoleViews.TraceStep(row.createdAt(), "database",
                    tombstone ? "cancelled before any reservation arrived (tombstone)" : "reservation row created",
                    trace));
            if (row.confirmedAt() != null) {
                steps.add(new ConsoleViews.TraceStep(row.confirmedAt(), "database", "confirmed (sold)", trace));
            }
            if (row.closedAt() != null && !tombstone) {
                steps.add(new ConsoleViews.TraceStep(row.closedAt(), "database", "closed as " + row.state(), trace));
            }
        }
        if (hot != null) {
            steps.add(new ConsoleViews.TraceStep(hot.createdAt(), "hot store", "order record opened, now "
                    + hot.state(), hot.traceId()));
        }
        for (StockEvent event : events) {
            String what = event.op() == StockOp.EXTEND
                    ? "EXTEND: the hold of " + event.skuId() + " now ends at " + event.expiresAt()
                    : event.op() + " " + event.qty() + " of " + event.skuId() + " in bucket " + event.bucket();
            steps.add(new ConsoleViews.TraceStep(event.occurredAt(), "journal", what,
                    event.traceId() == null ? null : event.traceId().value()));
        }
        for (ConsoleQueries.PendingRow held : pending) {
            steps.add(new ConsoleViews.TraceStep(held.occurredAt(), "journal (held back)", held.op() + " " + held.qty()
                    + " of " + held.skuId() + ", waiting for " + held.waitingFor(), held.traceId()));
        }
        steps.sort(Comparator.comparing(ConsoleViews.TraceStep::at, Comparator.nullsLast(Comparator.naturalOrder())));
        return steps;
    }

    private static List<String> traceIds(ConsoleQueries.ReservationRow row, HotStore.HotOrder hot,
            List<StockEvent> events, List<ConsoleQueries.PendingRow> pending) {
        Set<String> ids = new LinkedHashSet<>();
        if (row != null && row.traceId() != null) {
            ids.add(row.traceId());
        }
        if (hot != null && hot.traceId() != null) {
            ids.add(hot.traceId());
        }
        events.stream().filter(e -> e.traceId() != null).forEach(e -> ids.add(e.traceId().value()));
        pending.stream().filter(p -> p.traceId() != null).forEach(p -> ids.add(p.traceId()));
        return List.copyOf(ids);
    }

    private static ConsoleViews.HotComparison compare(HotStore hot, SkuId skuId) {
        try {
            return hot.snapshot(skuId).map(ConsoleViews.HotComparison::of)
                    .orElse(ConsoleViews.HotComparison.without(ConsoleViews.HotComparison.NOT_LOADED));
        } catch (RuntimeException e) {
            // Redis down or its breaker open: the page still shows the database, and says so.
            log.debug("cannot read {} from the hot store: {}", skuId, e.toString());
            return ConsoleViews.HotComparison.without(ConsoleViews.HotComparison.UNREADABLE);
        }
    }

    private static HotStore.Server server(HotStore hot) {
        try {
            return hot.server();
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static HotStore.PreheatStatus preheatStatus(HotStore hot) {
        try {
            return hot.preheatStatus();
        } catch (RuntimeException e) {
            return null;
        }
    }
}
