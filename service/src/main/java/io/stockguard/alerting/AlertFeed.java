package io.stockguard.alerting;

import java.util.List;

/** The alerts raised recently, as the console's live feed and the admin API show them. */
public interface AlertFeed {

    int LIMIT_MAX = 500;

    /** Newest first, at most {@code limit} (1 to {@value #LIMIT_MAX}), each with its deliveries. */
    List<RaisedAlert> recent(int limit);
}
