package io.stockguard.console.web;

import io.stockguard.console.ConsoleQueries;
import io.stockguard.console.ConsoleViews;
import io.stockguard.console.OperatorConsole;
import io.stockguard.console.ProbeReadings;
import io.stockguard.journal.StockEvent;
import io.stockguard.platform.InvalidRequestException;
import io.stockguard.hotstore.HotStore;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Instant;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The console's readings as JSON, for scripts and runbooks: what the pages show, same source, same limits. */
@RestController
@RequestMapping(path = "/api/v1/admin", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Admin: console readings", description = "The overview, a SKU's journal and an order's trace as JSON")
class ConsoleApiController {

    /** Said instead of a number while no reconciliation probe runs (it is switched off). */
    static final String PROBE_NOT_RUNNING = "probe not running";

    private final OperatorConsole console;

    ConsoleApiController(OperatorConsole console) {
        this.console = console;
    }

    record SkuSummary(String skuId, long total, long available, long reserved, long sold, String mode,
            String modeReason, String modeChangedBy, Instant modeChangedAt, HotSummary hot, Object drift) {
    }

    record HotSummary(String state, Long available, Long reserved, Long sold, Long epoch, Long outbox, String mode) {
    }

    record OverviewResponse(long skuCount, List<SkuSummary> skus, HotStore.PreheatStatus preheat, String probe,
            List<ProbeReadings.Alert> alerts) {
    }

    record Event(String eventId, String skuId, int bucket, String op, String orderId, String requestId, long qty,
            long deltaAvailable, long deltaReserved, long deltaSold, String traceId, String actor, Instant occurredAt,
            Long epoch, Long sequence) {

        static Event of(StockEvent e) {
            return new Event(e.eventId(), e.skuId().value(), e.bucket(), e.op().name(),
                    e.orderId() == null ? null : e.orderId().value(), e.requestId(), e.qty(), e.deltaAvailable(),
                    e.deltaReserved(), e.deltaSold(), e.traceId() == null ? null : e.traceId().value(), e.actor(),
                    e.occurredAt(), e.epoch(), e.sequence());
        }
    }

    record TraceResponse(String orderId, boolean found, ConsoleQueries.ReservationRow database, String servedState,
            String hotState, HotStore.HotOrder hot, List<Event> events, boolean eventsTruncated,
            List<ConsoleQueries.PendingRow> pending, List<ConsoleViews.TraceStep> steps, List<String> traceIds) {
    }

    @GetMapping("/skus")
    @Operation(summary = "The overview: SKUs with their stock, mode, hot-store copy and drift (when a probe runs)",
            description = "filter: part of a SKU id; soldOut=true: only SKUs with nothing available (the database's count)")
    OverviewResponse overview(@RequestParam(required = false) String filter,
            @RequestParam(defaultValue = "false") boolean soldOut) {
        if (filter != null && filter.length() > 64) {
            throw new InvalidRequestException("filter", "is longer than 64 characters");
        }
        ConsoleViews.Overview overview = console.overview(filter, soldOut);
        List<SkuSummary> skus = overview.rows().stream().map(row -> new SkuSummary(row.sku().skuId(),
                row.sku().total(), row.sku().available(), row.sku().reserved(), row.sku().sold(), row.sku().mode(),
                row.sku().modeReason(), row.sku().modeChangedBy(), row.sku().modeChangedAt(), hot(row.hot()),
                overview.probeRunning() ? row.drift() : PROBE_NOT_RUNNING)).toList();
        return new OverviewResponse(overview.skuCount(), skus, overview.preheat(),
                overview.probeRunning() ? "running" : PROBE_NOT_RUNNING, overview.alerts());
    }

    @GetMapping("/skus/{skuId}/journal")
    @Operation(summary = "The newest journal rows of a SKU, newest first")
    List<Event> journal(@PathVariable String skuId) {
        SkuId id = SkuId.of(skuId);
        return console.sku(id).orElseThrow(() -> SkuPageController.unknown(id)).journal().stream().map(Event::of)
                .toList();
    }

    @GetMapping("/orders/{orderId}/trace")
    @Operation(summary = "One order across every layer: database row and lines, hot-store record, every journal row "
            + "with epoch, sequence and trace id, changes held back, and the steps in time order")
    TraceResponse trace(@PathVariable String orderId) {
        ConsoleViews.OrderTrace trace = console.trace(OrderId.of(orderId));
        return new TraceResponse(trace.orderId(), trace.found(), trace.database(),
                trace.served() == null ? null : trace.served().state().name(), trace.hotState(), trace.hot(),
                trace.events().stream().map(Event::of).toList(), trace.eventsTruncated(), trace.pending(),
                trace.steps(), trace.traceIds());
    }

    private static HotSummary hot(ConsoleViews.HotComparison hot) {
        return hot == null ? null : new HotSummary(hot.state(), hot.available(), hot.reserved(), hot.sold(),
                hot.epoch(), hot.outbox(), hot.mode());
    }
}
