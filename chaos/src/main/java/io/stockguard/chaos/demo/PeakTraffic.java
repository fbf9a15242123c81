package io.stockguard.chaos.demo;

import io.stockguard.chaos.workload.Traffic;
import java.time.Duration;

/**
 * The post-mortem's peak, scaled to one machine. Before midnight shoppers browse (a few requests a
 * second, mostly stock queries); at midnight the order services go flat out and nearly every order
 * is for the hot SKU; minutes later comes the second wave, shoppers who missed out refreshing the
 * product page, so stock queries outnumber everything else; then the long tail of confirms,
 * cancels and expiring holds. Midnight is fixed when the demo starts; the second wave is placed by
 * the demo around the failover, as in the post-mortem, once the times of the faults are known.
 */
final class PeakTraffic implements Traffic {

    static final Traffic.Phase BEFORE_MIDNIGHT = new Traffic.Phase("before midnight", Duration.ofMillis(150), 600,
            300, Traffic.Shoppers.IDLE);
    static final Traffic.Phase MIDNIGHT = new Traffic.Phase("midnight spike", Duration.ZERO, 0, 950,
            Traffic.Shoppers.IDLE);
    static final Traffic.Phase SECOND_WAVE = new Traffic.Phase("second wave", Duration.ZERO, 700, 900,
            Traffic.Shoppers.QUERY);
    static final Traffic.Phase TAIL = new Traffic.Phase("after the peak", Duration.ZERO, 0, 700,
            Traffic.Shoppers.IDLE);
    /**
     * New shoppers keep ordering while the demo has the database paused: the order services' own
     * threads soon all wait on calls only the database can answer (a restock, the confirm of an
     * order settled long ago), but a sale's new orders need only Redis and Kafka, and must go on.
     * They buy the everyday item, which has stock whenever the pause comes.
     */
    static final Traffic.Phase ORDERS_GO_ON = new Traffic.Phase("orders go on", Duration.ZERO, 0, 700,
            Traffic.Shoppers.ORDER);

    /** What the person watching is told when a phase begins. */
    static String describe(Traffic.Phase phase) {
        if (phase == BEFORE_MIDNIGHT) {
            return "shoppers browse before the sale opens: a few requests a second, mostly stock queries";
        } else if (phase == MIDNIGHT) {
            return "the sale opens: every order service flat out, 95 % of the orders for the hot SKU";
        } else if (phase == SECOND_WAVE) {
            return "shoppers who missed out refresh the product page: stock queries outnumber everything else";
        } else if (phase == ORDERS_GO_ON) {
            return "new shoppers keep ordering the everyday item while the database is away";
        }
        return "the long tail: confirms, cancels and holds that expire";
    }

    private final Duration midnight;
    private final int shopperThreads;
    private volatile Duration waveFrom;
    private volatile Duration waveUntil;
    private volatile boolean ordersGoOn;

    /**
     * @param midnight how long after the load starts the sale opens
     * @param shopperThreads shopper threads beside the order services
     */
    PeakTraffic(Duration midnight, int shopperThreads) {
        this.midnight = midnight;
        this.shopperThreads = shopperThreads;
    }

    /** Places the second wave, in time since the load started. */
    void secondWave(Duration from, Duration until) {
        waveUntil = until;
        waveFrom = from;
    }

    /** New shoppers order ({@code true}) for as long as the database is away. */
    void ordersGoOn(boolean on) {
        ordersGoOn = on;
    }

    Duration midnight() {
        return midnight;
    }

    /** When the second wave starts, since the load started; null until placed. */
    Duration waveFrom() {
        return waveFrom;
    }

    Duration waveUntil() {
        return waveUntil;
    }

    @Override
    public Traffic.Phase at(Duration sinceStart) {
        if (ordersGoOn) {
            return ORDERS_GO_ON;
        }
        if (sinceStart.compareTo(midnight) < 0) {
            return BEFORE_MIDNIGHT;
        }
        Duration from = waveFrom;
        Duration until = waveUntil;
        if (from == null || sinceStart.compareTo(from) < 0) {
            return MIDNIGHT;
        }
        return sinceStart.compareTo(until) < 0 ? SECOND_WAVE : TAIL;
    }

    @Override
    public int shopperThreads() {
        return shopperThreads;
    }
}
