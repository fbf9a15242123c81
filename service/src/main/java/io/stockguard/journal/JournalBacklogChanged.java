package io.stockguard.journal;

/**
 * The journal's backlog crossed into or out of degraded mode: while {@code degraded}, new
 * reservations are throttled until the database writers catch up.
 *
 * @param degraded true when the backlog went over the threshold, false when it fell back below it
 * @param backlog the events not yet applied to the database when the change was decided
 * @param threshold the bound that was crossed: degrade-above when degrading, recover-below when recovering
 */
public record JournalBacklogChanged(boolean degraded, long backlog, long threshold) {
}
