-- Database ledger statements (module reservation, embedded / small tier). Named statements; the
-- per-dialect files hold the few that differ (insert-if-absent).

-- The hot statement. Moves one bucket's counters by the given deltas only if no counter goes
-- negative and the SKU sells: check and change in one statement on one locked row, so concurrent
-- reservations cannot both see the same last unit (I1), and a committed freeze is seen by the
-- row lock it takes (I6).
-- name: applySelling
UPDATE stock_bucket
SET available = available + ?, reserved = reserved + ?, sold = sold + ?, applied_sum = applied_sum + ?
WHERE sku_id = ? AND bucket = ?
  AND available + ? >= 0 AND reserved + ? >= 0 AND sold + ? >= 0
  AND mode <> 'FROZEN';

-- The same without the mode check: confirm, cancel, expire, restock and transfers work on frozen SKUs.
-- name: apply
UPDATE stock_bucket
SET available = available + ?, reserved = reserved + ?, sold = sold + ?, applied_sum = applied_sum + ?
WHERE sku_id = ? AND bucket = ?
  AND available + ? >= 0 AND reserved + ? >= 0 AND sold + ? >= 0;

-- name: lockBuckets
SELECT bucket, available, reserved, sold, mode, applied_sum
FROM stock_bucket
WHERE sku_id = ?
ORDER BY bucket
FOR UPDATE;

-- name: buckets
SELECT bucket, available, reserved, sold, mode, applied_sum
FROM stock_bucket
WHERE sku_id = ?
ORDER BY bucket;

-- name: insertBucket
INSERT INTO stock_bucket (sku_id, bucket, available, reserved, sold, mode, applied_sum)
VALUES (?, ?, ?, 0, 0, 'NORMAL', ?);

-- name: setBucketsMode
UPDATE stock_bucket SET mode = ? WHERE sku_id = ?;

-- name: bucketCount
SELECT bucket_count FROM sku WHERE sku_id = ?;

-- name: sku
SELECT sku_id, bucket_count, safety_stock, mode, throttle_rate, mode_reason, mode_changed_by, mode_changed_at,
       limit_per_customer, low_stock_threshold
FROM sku
WHERE sku_id = ?;

-- A SKU's stock as a read shows it: its row and its buckets, in one round trip (no lock).
-- name: skuStock
SELECT s.sku_id, s.bucket_count, s.safety_stock, s.mode, s.throttle_rate, s.mode_reason, s.mode_changed_by,
       s.mode_changed_at, s.limit_per_customer, s.low_stock_threshold,
       b.bucket, b.available, b.reserved, b.sold, b.mode AS bucket_mode, b.applied_sum
FROM sku s
LEFT JOIN stock_bucket b ON b.sku_id = s.sku_id
WHERE s.sku_id = ?
ORDER BY b.bucket;

-- name: lockSku
SELECT sku_id, bucket_count, safety_stock, mode, throttle_rate, mode_reason, mode_changed_by, mode_changed_at,
       limit_per_customer, low_stock_threshold
FROM sku
WHERE sku_id = ?
FOR UPDATE;

-- name: setSafetyStock
UPDATE sku SET safety_stock = ?, updated_at = ? WHERE sku_id = ?;

-- name: setLimitPerCustomer
UPDATE sku SET limit_per_customer = ?, updated_at = ? WHERE sku_id = ?;

-- name: setLowStockThreshold
UPDATE sku SET low_stock_threshold = ?, updated_at = ? WHERE sku_id = ?;

-- Read in the reservation's transaction, so a limit committed before it is the one it keeps.
-- name: limitPerCustomer
SELECT COALESCE(limit_per_customer, 0) FROM sku WHERE sku_id = ?;

-- name: touchSku
UPDATE sku SET updated_at = ? WHERE sku_id = ?;

-- name: setSkuMode
UPDATE sku SET mode = ?, throttle_rate = ?, mode_reason = ?, mode_changed_by = ?, mode_changed_at = ?, updated_at = ?
WHERE sku_id = ?;

-- name: reservation
SELECT order_id, state, fingerprint, created_at, expires_at, confirmed_at, closed_at, trace_id, extensions,
       customer_id
FROM reservation
WHERE order_id = ?;

-- name: lockReservation
SELECT order_id, state, fingerprint, created_at, expires_at, confirmed_at, closed_at, trace_id, extensions,
       customer_id
FROM reservation
WHERE order_id = ?
FOR UPDATE;

-- name: lines
SELECT sku_id, qty, bucket FROM reservation_line WHERE order_id = ?;

-- name: insertLine
INSERT INTO reservation_line (order_id, sku_id, qty, bucket) VALUES (?, ?, ?, ?);

-- Conditional on the state read under lock: a transition happens once, whoever asks twice.
-- name: transition
UPDATE reservation
SET state = ?, confirmed_at = COALESCE(?, confirmed_at), closed_at = COALESCE(?, closed_at)
WHERE order_id = ? AND state = ?;

-- A hold made longer, never shorter: the row is locked by the caller, who decided the extension.
-- name: extendHold
UPDATE reservation SET expires_at = ?, extensions = ? WHERE order_id = ?;

-- The order's lines whose extension is journaled already (one EXTEND per line, like every order
-- operation).
-- name: extendedLines
SELECT sku_id FROM stock_event WHERE order_id = ? AND op = 'EXTEND';

-- Reservations past their TTL after a place (expires_at, order_id), in that order: the sweeper
-- pages through them, so those it cannot expire now do not hold back the rest.
-- name: due
SELECT order_id, expires_at
FROM reservation
WHERE state = 'RESERVED' AND expires_at <= ? AND (expires_at > ? OR (expires_at = ? AND order_id > ?))
ORDER BY expires_at, order_id
LIMIT ?;

-- name: stockRequest
SELECT sku_id, op, fingerprint FROM stock_request WHERE request_id = ?;

-- The hot-store stamp last applied to each bucket of a SKU (after a failover: was anything lost?).
-- name: appliedStamps
SELECT bucket, applied_epoch, applied_seq FROM stock_bucket WHERE sku_id = ? ORDER BY bucket;

-- Statements of the coalescing writer: one transaction serves a batch of reservations.

-- name: existingOrders
SELECT order_id FROM reservation WHERE order_id IN (:orderIds);

-- What the SKUs hold as last committed, and which of the orders are stored, read together without
-- locking and outside any transaction. One statement reads one snapshot: an order it finds absent
-- was absent when its SKU read empty, so refusing it is what a reader at that moment would answer.
-- Lets a batch refuse the requests of a sold-out SKU in one round trip: no row lock, no commit.
-- name: soldOutSnapshot
SELECT 'SKU' AS kind, sku_id AS id, SUM(available) AS available, MIN(mode) AS mode
FROM stock_bucket
WHERE sku_id IN (:skuIds)
GROUP BY sku_id
UNION ALL
SELECT 'ORDER' AS kind, order_id AS id, NULL AS available, NULL AS mode
FROM reservation
WHERE order_id IN (:orderIds);

-- Every bucket of every SKU in the batch, locked in (SKU, bucket) order: the same total order in
-- which every other transaction locks buckets, so batches and single operations cannot deadlock.
-- name: lockBucketsOfSkus
SELECT sku_id, bucket, available, reserved, sold, mode, applied_sum
FROM stock_bucket
WHERE sku_id IN (:skuIds)
ORDER BY sku_id, bucket
FOR UPDATE;

-- A plain insert: a concurrent insert of the same order fails the batch, whose requests are then
-- served one by one (and replay).
-- name: insertNewReservation
INSERT INTO reservation (order_id, state, fingerprint, created_at, expires_at, confirmed_at, closed_at, trace_id,
                         customer_id)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- Statements of the journal applier: events from the hot store applied to the database.

-- name: existingEventIds
SELECT event_id FROM stock_event WHERE event_id IN (:eventIds);

-- name: pendingEventIds
SELECT event_id FROM pending_event WHERE event_id IN (:eventIds);

-- Who already holds each hot-store stamp: a different event with the same stamp is a regression.
-- Every column of the stamps' index (stock_event_bucket_seq: SKU, bucket, epoch, number) is bounded
-- by a list, so the database probes for the stamps. Bounded by the SKU and the number alone, it read
-- every stamped event of the SKU (bucket, the index's second column, was free): on PostgreSQL 15, a
-- hot SKU some 10^5 events old, 100-400 ms a batch, two thirds of the time of the standard tier's
-- 30 costliest statements. The lists still match every combination of their values, more rows than
-- the stamps on a batch of many SKUs; PostgreSQL has an exact form (postgresql/ledger.sql). The
-- caller keeps only the exact stamps it asked for.
-- name: stampOwners
SELECT sku_id, bucket, epoch, bucket_seq, event_id
FROM stock_event
WHERE sku_id IN (:skuIds) AND bucket IN (:buckets) AND epoch IN (:epochs) AND bucket_seq IN (:sequences);

-- Reservation rows of a batch, locked in order id order before any bucket is locked: the same
-- order every transaction takes them in.
-- name: lockReservations
SELECT order_id, state, fingerprint, created_at, expires_at, confirmed_at, closed_at, trace_id, extensions,
       customer_id
FROM reservation
WHERE order_id IN (:orderIds)
ORDER BY order_id
FOR UPDATE;

-- The SKUs these orders have lines on, read before any lock: the applier locks them with the
-- batch's own SKUs, in SKU order (see JournalApplier).
-- name: skusOfOrders
SELECT DISTINCT sku_id FROM reservation_line WHERE order_id IN (:orderIds);

-- name: linesOfOrders
SELECT order_id, sku_id, qty, bucket FROM reservation_line WHERE order_id IN (:orderIds);

-- name: pendingOfOrders
SELECT event_id, order_id, sku_id, bucket, op, qty, delta_available, delta_reserved, delta_sold, trace_id,
       actor, occurred_at, epoch, bucket_seq, request_id, fingerprint, expires_at, hot_available, hot_journaled,
       waiting_for, customer_id
FROM pending_event
WHERE order_id IN (:orderIds) AND waiting_for = 'ORDER'
ORDER BY occurred_at;

-- Changes waiting for their predecessors in the hot bucket, in the hot store's order.
-- name: pendingOfSkus
SELECT event_id, order_id, sku_id, bucket, op, qty, delta_available, delta_reserved, delta_sold, trace_id,
       actor, occurred_at, epoch, bucket_seq, request_id, fingerprint, expires_at, hot_available, hot_journaled,
       waiting_for, customer_id
FROM pending_event
WHERE sku_id IN (:skuIds) AND waiting_for = 'BUCKET'
ORDER BY epoch, bucket_seq;

-- name: insertPending
INSERT INTO pending_event (event_id, order_id, sku_id, bucket, op, qty, delta_available, delta_reserved,
                           delta_sold, trace_id, actor, occurred_at, epoch, bucket_seq, request_id, fingerprint,
                           expires_at, hot_available, hot_journaled, waiting_for, customer_id)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- name: deletePending
DELETE FROM pending_event WHERE event_id = ?;

-- name: updateReservation
UPDATE reservation
SET state = ?, fingerprint = ?, expires_at = ?, confirmed_at = ?, closed_at = ?, trace_id = ?
WHERE order_id = ?;

-- The highest stamp applied to a bucket only ever grows.
-- name: raiseAppliedStamp
UPDATE stock_bucket
SET applied_epoch = ?, applied_seq = ?
WHERE sku_id = ? AND bucket = ?
  AND (applied_epoch < ? OR (applied_epoch = ? AND applied_seq < ?));

-- name: insertAnomaly
INSERT INTO anomaly (at, kind, sku_id, bucket, event_id, detail) VALUES (?, ?, ?, ?, ?, ?);

-- name: skuModes
SELECT sku_id, mode FROM sku WHERE sku_id IN (:skuIds);

-- How many SKUs are out of NORMAL now, by mode (for the gauge ops alert on).
-- name: skusOutOfNormal
SELECT mode, COUNT(*) AS skus FROM sku WHERE mode <> 'NORMAL' GROUP BY mode;

-- Statements that load the hot store from the database.

-- A SKU's buckets with what the hot store needs, in one consistent read.
-- name: hotSource
SELECT s.bucket_count, s.mode, s.throttle_rate, s.limit_per_customer, b.bucket, b.available, b.reserved, b.sold,
       b.applied_sum
FROM sku s JOIN stock_bucket b ON b.sku_id = s.sku_id
WHERE s.sku_id = ?
ORDER BY b.bucket;

-- Order operations already applied: a second one for the same (order, SKU, op) is not applied again.
-- name: appliedOrderOps
SELECT order_id, sku_id, op FROM stock_event WHERE order_id IN (:orderIds);

-- name: skuPage
SELECT sku_id FROM sku WHERE sku_id > ? ORDER BY sku_id LIMIT ?;

-- What each named customer holds or bought of a SKU, for the hot store to start from.
-- name: customerHoldsOfSku
SELECT customer_id, units FROM customer_hold WHERE sku_id = ? AND units > 0 LIMIT ?

-- Holds of a SKU still open: their lines must exist in the hot store for cancel and expiry.
-- name: openLinesOfSku
SELECT l.order_id, r.state, l.qty, l.bucket, r.customer_id
FROM reservation_line l JOIN reservation r ON r.order_id = l.order_id
WHERE l.sku_id = ? AND r.state = 'RESERVED'
LIMIT ?

-- Ownership (io.stockguard.reservation.Ownership): who sells a SKU, changed under the SKU's lock.
-- name: ownership
SELECT owner, hot_epoch, owner_since, owner_seq FROM sku WHERE sku_id = ?;

-- name: lockOwnership
SELECT owner, hot_epoch, owner_since FROM sku WHERE sku_id = ? FOR UPDATE;

-- Who sells each SKU, for the appended journal's fence: read after the append took its entry
-- numbers, so a take-over that committed before is seen (see lockJournalAppends).
-- name: ownerships
SELECT sku_id, owner, hot_epoch, owner_since FROM sku WHERE sku_id IN (:skuIds);

-- A take-over waits for the append under way, and the appends after it see the take-over: the
-- journal's appenders take entry numbers under this row's lock, then read who sells (journal.sql).
-- name: lockJournalAppends
SELECT seq FROM journal_mark WHERE name = 'appended' FOR UPDATE;

-- name: setOwnership
UPDATE sku SET owner = ?, hot_epoch = ?, owner_since = ?, owner_seq = ? WHERE sku_id = ?;

-- The next change number. The row stays locked until the transaction ends: changes are numbered in
-- the order they commit.
-- name: bumpOwnershipClock
UPDATE ownership_clock SET seq = seq + 1 WHERE id = 1;

-- name: ownershipClock
SELECT seq FROM ownership_clock WHERE id = 1;

-- Changes after a position (change number, then SKU id within it), oldest first.
-- name: ownershipChanges
SELECT sku_id, owner, hot_epoch, owner_since, owner_seq FROM sku
WHERE owner_seq > ? OR (owner_seq = ? AND sku_id > ?)
ORDER BY owner_seq, sku_id
LIMIT ?;

-- Lines of settled orders whose own settlement is not in the journal while their reserve is: the
-- hot store settles an order line by line, and one line's change can be fenced (its hot store
-- taken over) after another line has moved the order. The settlement each line still owes follows
-- from the order's state; for a cancel, whether the line was confirmed says what it returns. A
-- line with a settlement waiting in pending_event is left to it.
-- name: unsettledLines
SELECT l.order_id, l.bucket, l.qty, r.state,
       CASE WHEN EXISTS (SELECT 1 FROM stock_event c
                         WHERE c.order_id = l.order_id AND c.sku_id = l.sku_id AND c.op = 'CONFIRM')
            THEN 1 ELSE 0 END AS confirmed
FROM reservation_line l
JOIN reservation r ON r.order_id = l.order_id
WHERE l.sku_id = ?
  AND r.state IN ('CONFIRMED', 'CANCELLED', 'EXPIRED')
  AND EXISTS (SELECT 1 FROM stock_event s
              WHERE s.order_id = l.order_id AND s.sku_id = l.sku_id AND s.op = 'RESERVE')
  AND NOT EXISTS (SELECT 1 FROM stock_event e
                  WHERE e.order_id = l.order_id AND e.sku_id = l.sku_id
                    AND e.op = CASE r.state WHEN 'CONFIRMED' THEN 'CONFIRM'
                                            WHEN 'CANCELLED' THEN 'CANCEL' ELSE 'EXPIRE' END)
  AND NOT EXISTS (SELECT 1 FROM pending_event p WHERE p.order_id = l.order_id AND p.sku_id = l.sku_id)
ORDER BY l.order_id
LIMIT ?;

-- Statements of the bulk catalogue (imports and exports).

-- What SKUs are, as an import line states them; the total is the sum of the buckets' counters, and
-- owner says whether the hot store sells the SKU (its counters there may be ahead of these).
-- name: catalogueOfSkus
SELECT s.sku_id, s.bucket_count, s.safety_stock, s.limit_per_customer, s.low_stock_threshold, s.owner,
       SUM(b.available + b.reserved + b.sold) AS total
FROM sku s JOIN stock_bucket b ON b.sku_id = s.sku_id
WHERE s.sku_id IN (:skuIds)
GROUP BY s.sku_id, s.bucket_count, s.safety_stock, s.limit_per_customer, s.low_stock_threshold, s.owner;

-- A page of the catalogue in id order, for an export: keyset paging, the page's SKUs picked first
-- (an index range) and only their buckets summed. Summing first and limiting after would group the
-- whole rest of the catalogue for every page.
-- name: cataloguePage
SELECT s.sku_id, s.bucket_count, s.safety_stock, s.limit_per_customer, s.low_stock_threshold, s.owner,
       SUM(b.available + b.reserved + b.sold) AS total
FROM (SELECT sku_id, bucket_count, safety_stock, limit_per_customer, low_stock_threshold, owner
      FROM sku WHERE sku_id > ? ORDER BY sku_id LIMIT ?) s
JOIN stock_bucket b ON b.sku_id = s.sku_id
GROUP BY s.sku_id, s.bucket_count, s.safety_stock, s.limit_per_customer, s.low_stock_threshold, s.owner
ORDER BY s.sku_id;

-- A plain insert: a SKU created meanwhile by someone else fails the whole batch, which the import
-- then makes line by line.
-- name: insertNewSku
INSERT INTO sku (sku_id, bucket_count, safety_stock, limit_per_customer, low_stock_threshold, mode, created_at,
                 updated_at)
VALUES (?, ?, ?, ?, ?, 'NORMAL', ?, ?);

-- Per-customer holds (CustomerHolds). The limit check and the count move in one conditional UPDATE
-- of the (SKU, customer) row, which serialises one customer's orders of a SKU and nobody else's.
-- Parameters: units, SKU, customer, limit (0: none), units, limit.
-- name: takeCustomerHold
UPDATE customer_hold SET units = units + ?
WHERE sku_id = ? AND customer_id = ? AND (? = 0 OR units + ? <= ?);

-- name: customerHold
SELECT units FROM customer_hold WHERE sku_id = ? AND customer_id = ?;

-- A release never takes the count below 0: a hold counted before customers were counted (or lost
-- with a hot store) has nothing to give back. Parameters: delta, delta, SKU, customer.
-- name: moveCustomerHold
UPDATE customer_hold SET units = CASE WHEN units + ? > 0 THEN units + ? ELSE 0 END
WHERE sku_id = ? AND customer_id = ?;
