-- Stock levels and their webhook deliveries (module stocklevel). See SqlStatements.

-- SKUs changed by the journal rows after a position, with each row's trace id, oldest first.
-- name: changedSince
SELECT id, sku_id, trace_id FROM stock_event WHERE id > ? ORDER BY id LIMIT ?;

-- name: lastEventId
SELECT COALESCE(MAX(id), 0) FROM stock_event;

-- name: watchPosition
SELECT last_event_id FROM stock_level_watch WHERE id = 1;

-- name: createWatch
INSERT INTO stock_level_watch (id, last_event_id) VALUES (1, ?);

-- name: moveWatch
UPDATE stock_level_watch SET last_event_id = ? WHERE id = 1 AND last_event_id < ?;

-- name: resetWatch
UPDATE stock_level_watch SET last_event_id = ? WHERE id = 1;

-- name: levels
SELECT sku_id, level, available, changed_at FROM stock_level WHERE sku_id IN (:skuIds);

-- Moves a SKU's level only from the level it was read at: whoever moves it reports the change.
-- name: moveLevel
UPDATE stock_level SET level = ?, available = ?, changed_at = ? WHERE sku_id = ? AND level = ?;

-- name: insertEvent
INSERT INTO stock_level_event (event_id, sku_id, kind, available, total, occurred_at, trace_id)
VALUES (?, ?, ?, ?, ?, ?, ?);

-- name: insertDelivery
INSERT INTO stock_level_delivery (event_id, webhook, state, attempts, next_attempt_at)
VALUES (?, ?, 'PENDING', 0, ?);

-- Deliveries due now, oldest first, with their events.
-- name: due
SELECT d.event_id, d.webhook, d.attempts, e.sku_id, e.kind, e.available, e.total, e.occurred_at, e.trace_id
FROM stock_level_delivery d JOIN stock_level_event e ON e.event_id = d.event_id
WHERE d.state = 'PENDING' AND d.next_attempt_at <= ?
ORDER BY d.next_attempt_at, e.id
LIMIT ?;

-- name: delivered
UPDATE stock_level_delivery SET state = 'DELIVERED', attempts = attempts + 1, finished_at = ?, last_error = NULL
WHERE event_id = ? AND webhook = ? AND state = 'PENDING';

-- name: retryLater
UPDATE stock_level_delivery SET attempts = attempts + 1, next_attempt_at = ?, last_error = ?
WHERE event_id = ? AND webhook = ? AND state = 'PENDING';

-- name: giveUp
UPDATE stock_level_delivery SET state = 'GAVE_UP', attempts = attempts + 1, finished_at = ?, last_error = ?
WHERE event_id = ? AND webhook = ? AND state = 'PENDING';

-- The newest events of a SKU, or of every SKU, with how their deliveries stand.
-- name: recentEvents
SELECT e.event_id, e.sku_id, e.kind, e.available, e.total, e.occurred_at, e.trace_id,
       SUM(CASE WHEN d.state = 'DELIVERED' THEN 1 ELSE 0 END) AS delivered,
       SUM(CASE WHEN d.state = 'PENDING' THEN 1 ELSE 0 END) AS pending,
       SUM(CASE WHEN d.state = 'GAVE_UP' THEN 1 ELSE 0 END) AS gave_up
FROM stock_level_event e LEFT JOIN stock_level_delivery d ON d.event_id = e.event_id
WHERE (? = '' OR e.sku_id = ?)
GROUP BY e.id, e.event_id, e.sku_id, e.kind, e.available, e.total, e.occurred_at, e.trace_id
ORDER BY e.id DESC
LIMIT ?;

-- The stock of several SKUs as the database counts it: current when acknowledged on the database and
-- standard tiers, behind by the journal's lag (milliseconds when healthy) in the full tier.
-- The low-stock threshold is the SKU's own when set, its safety stock otherwise.
-- name: stockOf
SELECT s.sku_id, COALESCE(s.low_stock_threshold, s.safety_stock) AS low_stock_threshold,
       SUM(b.available) AS available, SUM(b.available + b.reserved + b.sold) AS total
FROM sku s JOIN stock_bucket b ON b.sku_id = s.sku_id
WHERE s.sku_id IN (:skuIds)
GROUP BY s.sku_id, s.low_stock_threshold, s.safety_stock;

-- Subscriptions made by the admin API.
-- name: subscriptions
SELECT name, url, secret, created_at, created_by FROM stock_level_subscription ORDER BY name LIMIT ?;

-- A plain insert: a name taken already fails it, and the caller answers NAME_TAKEN.
-- name: insertSubscription
INSERT INTO stock_level_subscription (name, url, secret, created_at, created_by) VALUES (?, ?, ?, ?, ?);

-- name: deleteSubscription
DELETE FROM stock_level_subscription WHERE name = ?;
