package io.stockguard.chaos.run;

import io.stockguard.chaos.cluster.Cluster;
import io.stockguard.chaos.history.History;
import io.stockguard.chaos.nemesis.Fault;
import io.stockguard.chaos.workload.Catalogue;
import io.stockguard.chaos.workload.Target;
import io.stockguard.chaos.workload.Traffic;
import java.util.List;
import java.util.Map;

/**
 * What a run adds around its load: nothing for a chaos run; for the demo, its settings (a console
 * login, an alert receiver), its catalogue, the steps it plays beside the load, and what it tells
 * the person watching as each fault comes and goes.
 */
public interface Stage {

    Stage NONE = new Stage() {
    };

    /** Settings every instance gets beyond the tier's own. */
    default Map<String, String> settings() {
        return Map.of();
    }

    default Catalogue catalogue() {
        return Catalogue.standard();
    }

    /** The load's shape over the run. */
    default Traffic traffic() {
        return Traffic.STEADY;
    }

    /** The cluster is up, the catalogue made and the clients loading it. */
    default void loadStarted(Cluster cluster, List<Target> targets, History history) {
    }

    /** {@code fault} is about to be injected. */
    default void injecting(Fault fault) {
    }

    /** {@code fault} was healed ({@code injected} false: its injection failed). */
    default void healed(Fault fault, boolean injected) {
    }

    /** The clients stopped; the final reads come next. */
    default void loadEnded() {
    }
}
