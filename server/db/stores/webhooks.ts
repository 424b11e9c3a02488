// Webhook endpoints and their delivery state (migration 008, docs/decisions/0023-webhooks.md).
// Feed positions are bigints, carried as decimal text so that neither engine's driver
// rounds them. Every instant comes from the caller's clock, never now(): the worker's
// retry window and leases are tested with a clock of the test's own.
import type { Queryable } from '../engines/database.js';

/** A position beyond every change: a new batch has no upper bound. */
const NO_BOUND = '9223372036854775807';

export interface WebhookEndpoint {
  id: string;
  url: string;
  companies: string[];
  /** The change kinds delivered; null: every kind. */
  events: string[] | null;
  secret: string;
  previousSecret: string | null;
  previousSecretValidUntil: Date | null;
  deliveredPosition: string;
  pendingId: string | null;
  pendingThrough: string | null;
  attempts: number;
  firstFailedAt: Date | null;
  nextAttemptAt: Date;
  disabledAt: Date | null;
  disabledReason: string | null;
  createdAt: Date;
}

/** A row of the feed (migration 007), as the worker reads it. */
export interface ChangeRow {
  position: string;
  kind: string;
  companyId: string;
  employeeId: string | null;
  personId: string | null;
  changedAt: Date;
}

const ENDPOINT_COLUMNS = `e.id, e.url, e.companies, e.events, e.secret,
  e.previous_secret AS "previousSecret", e.previous_secret_valid_until AS "previousSecretValidUntil",
  e.delivered_position::text AS "deliveredPosition", e.pending_id AS "pendingId", e.pending_through::text AS "pendingThrough",
  e.attempts, e.first_failed_at AS "firstFailedAt", e.next_attempt_at AS "nextAttemptAt",
  e.disabled_at AS "disabledAt", e.disabled_reason AS "disabledReason", e.created_at AS "createdAt"`;

/** Where a new endpoint starts: after every change committed so far (a replay goes further back). */
export async function latestPosition(db: Queryable): Promise<string> {
  const [row] = await db.query<{ position: string }>('SELECT coalesce(max(position), 0)::text AS position FROM changes');
  return row!.position;
}

/** The feed's pruned mark (migration 007): the changes at or below it may be gone. */
export async function prunedThrough(db: Queryable): Promise<string> {
  const [row] = await db.query<{ through: string }>('SELECT through::text AS through FROM change_feed_pruned');
  return row!.through;
}

export async function insertEndpoint(
  db: Queryable,
  endpoint: { id: string; url: string; companies: string[]; events: string[] | null; secret: string; now: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO webhook_endpoints (id, url, companies, events, secret, delivered_position, next_attempt_at, created_at)
     VALUES ($1, $2, $3, $4, $5, (SELECT coalesce(max(position), 0) FROM changes), $6, $6)`,
    [endpoint.id, endpoint.url, endpoint.companies, endpoint.events, endpoint.secret, endpoint.now],
  );
}

export async function listEndpoints(db: Queryable): Promise<WebhookEndpoint[]> {
  return db.query<WebhookEndpoint>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints e ORDER BY e.created_at, e.id`);
}

export async function findEndpoint(db: Queryable, id: string): Promise<WebhookEndpoint | undefined> {
  const [row] = await db.query<WebhookEndpoint>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints e WHERE e.id = $1`, [id]);
  return row;
}

export async function removeEndpoint(db: Queryable, id: string): Promise<boolean> {
  return (await db.query('DELETE FROM webhook_endpoints WHERE id = $1 RETURNING id', [id])).length > 0;
}

/** The new secret signs from now on; the current one keeps signing beside it until `previousValidUntil` (null: not at all). */
export async function replaceSecret(db: Queryable, id: string, secret: string, previousValidUntil: Date | null): Promise<boolean> {
  const rows = await db.query(
    `UPDATE webhook_endpoints
        SET previous_secret = CASE WHEN $3::timestamptz IS NULL THEN NULL ELSE secret END,
            previous_secret_valid_until = $3, secret = $2
      WHERE id = $1 RETURNING id`,
    [id, secret, previousValidUntil],
  );
  return rows.length > 0;
}

/**
 * The endpoint delivers again from `position` (the changes after it), enabled, with no
 * batch pending and no lease: a delivery in flight now finds its lease gone and records
 * nothing (recordAttempt), so it cannot move the cursor back past the replay.
 */
export async function restartEndpoint(db: Queryable, id: string, now: Date, position?: string): Promise<boolean> {
  const rows = await db.query(
    `UPDATE webhook_endpoints
        SET delivered_position = coalesce($3::bigint, delivered_position),
            pending_id = CASE WHEN $3::bigint IS NULL THEN pending_id END,
            pending_through = CASE WHEN $3::bigint IS NULL THEN pending_through END,
            attempts = 0, first_failed_at = NULL, next_attempt_at = $2, lease_token = NULL, lease_until = NULL,
            disabled_at = NULL, disabled_reason = NULL
      WHERE id = $1 RETURNING id`,
    [id, now, position ?? null],
  );
  return rows.length > 0;
}

/**
 * Leases up to `limit` endpoints that are due and have something to deliver (a pending
 * batch, or a change after their cursor), each to this worker until `leaseUntil`. SKIP
 * LOCKED: an endpoint another instance is claiming at the same moment is passed over, and
 * once leased it is not due for anyone else: one delivery in flight per endpoint.
 */
export async function claimDueEndpoints(db: Queryable, token: string, now: Date, leaseUntil: Date, limit: number): Promise<WebhookEndpoint[]> {
  return db.query<WebhookEndpoint>(
    `WITH due AS (
       SELECT d.id FROM webhook_endpoints d
        WHERE d.disabled_at IS NULL AND d.next_attempt_at <= $2 AND (d.lease_until IS NULL OR d.lease_until <= $2)
          AND (d.pending_id IS NOT NULL OR EXISTS (
                SELECT 1 FROM unnest(d.companies) AS co(id)
                  JOIN changes c ON c.company_id = co.id AND c.position > d.delivered_position
                 WHERE d.events IS NULL OR c.kind = ANY(d.events)))
        ORDER BY d.next_attempt_at
        LIMIT $4
          FOR UPDATE SKIP LOCKED)
     UPDATE webhook_endpoints e SET lease_token = $1, lease_until = $3
       FROM due WHERE e.id = due.id
     RETURNING ${ENDPOINT_COLUMNS}`,
    [token, now, leaseUntil, limit],
  );
}

/** The endpoint's changes after its cursor, through `through` (its pending batch) or the next `limit`, in feed order. */
export async function endpointChanges(db: Queryable, endpoint: WebhookEndpoint, limit: number): Promise<ChangeRow[]> {
  return db.query<ChangeRow>(
    `SELECT c.position::text AS position, c.kind, c.company_id AS "companyId", c.employee_id AS "employeeId",
            c.person_id AS "personId", c.changed_at AS "changedAt"
       FROM unnest($1::text[]) AS co(id)
      CROSS JOIN LATERAL (
            SELECT * FROM changes c
             WHERE c.company_id = co.id AND c.position > $2::bigint AND c.position <= $3::bigint
               AND ($4::text[] IS NULL OR c.kind = ANY($4::text[]))
             ORDER BY c.position LIMIT $5) c
      ORDER BY c.position LIMIT $5`,
    [endpoint.companies, endpoint.deliveredPosition, endpoint.pendingThrough ?? NO_BOUND, endpoint.events, limit],
  );
}

/** Fixes the batch to deliver (and retry) under `pendingId`: the changes through `through`. False when the lease was lost. */
export async function fixBatch(db: Queryable, id: string, token: string, pendingId: string, through: string): Promise<boolean> {
  const rows = await db.query('UPDATE webhook_endpoints SET pending_id = $3, pending_through = $4 WHERE id = $1 AND lease_token = $2 RETURNING id', [
    id,
    token,
    pendingId,
    through,
  ]);
  return rows.length > 0;
}

export interface Attempt {
  endpointId: string;
  token: string;
  deliveryId: string;
  attempt: number;
  afterPosition: string;
  throughPosition: string;
  changes: number;
  outcome: string;
  status: number | null;
  durationMs: number;
  at: Date;
  /** Delivered: the cursor moves to throughPosition. Otherwise, the next attempt, or the endpoint disabled. */
  next: { delivered: true } | { delivered: false; firstFailedAt: Date; nextAttemptAt: Date; disabledReason: string | null };
}

/**
 * Records an attempt and its consequence, and ends the lease, in one statement: nothing
 * at all when the lease is no longer this worker's (the endpoint was replayed or removed
 * meanwhile). Returns whether it was recorded.
 */
export async function recordAttempt(db: Queryable, a: Attempt): Promise<boolean> {
  const delivered = a.next.delivered;
  const failed = a.next.delivered ? undefined : a.next;
  const rows = await db.query(
    `WITH updated AS (
       UPDATE webhook_endpoints
          SET delivered_position = CASE WHEN $3::boolean THEN pending_through ELSE delivered_position END,
              pending_id = CASE WHEN $3::boolean THEN NULL ELSE pending_id END,
              pending_through = CASE WHEN $3::boolean THEN NULL ELSE pending_through END,
              attempts = CASE WHEN $3::boolean THEN 0 ELSE attempts + 1 END,
              first_failed_at = $4::timestamptz, next_attempt_at = coalesce($5::timestamptz, $6::timestamptz),
              disabled_at = CASE WHEN $7::text IS NULL THEN NULL ELSE $6::timestamptz END, disabled_reason = $7::text,
              lease_token = NULL, lease_until = NULL
        WHERE id = $1 AND lease_token = $2
        RETURNING id)
     INSERT INTO webhook_deliveries (endpoint_id, attempted_at, delivery_id, attempt, after_position, through_position, changes, outcome, status, duration_ms)
     SELECT id, $6, $8, $9, $10, $11, $12, $13, $14, $15 FROM updated
     RETURNING endpoint_id`,
    [
      a.endpointId,
      a.token,
      delivered,
      failed?.firstFailedAt ?? null,
      failed?.nextAttemptAt ?? null,
      a.at,
      failed?.disabledReason ?? null,
      a.deliveryId,
      a.attempt,
      a.afterPosition,
      a.throughPosition,
      a.changes,
      a.outcome,
      a.status,
      a.durationMs,
    ],
  );
  return rows.length > 0;
}

/** Disables the endpoint (with its lease's end), if the lease is still this worker's. */
export async function disableEndpoint(db: Queryable, id: string, token: string, now: Date, reason: string): Promise<boolean> {
  const rows = await db.query(
    `UPDATE webhook_endpoints SET disabled_at = $3, disabled_reason = $4, lease_token = NULL, lease_until = NULL
      WHERE id = $1 AND lease_token = $2 RETURNING id`,
    [id, token, now, reason],
  );
  return rows.length > 0;
}

/** Gives the endpoint back undelivered (a shutdown, or nothing to send after all): due again at `nextAttemptAt`. */
export async function releaseEndpoint(db: Queryable, id: string, token: string, nextAttemptAt: Date): Promise<void> {
  await db.query('UPDATE webhook_endpoints SET lease_token = NULL, lease_until = NULL, next_attempt_at = $3 WHERE id = $1 AND lease_token = $2', [
    id,
    token,
    nextAttemptAt,
  ]);
}

/** An attempt as `deliveries` lists it: what was sent and how it ended, without the lease. */
export type DeliveryRecord = Omit<Attempt, 'endpointId' | 'token' | 'at' | 'next'> & { attemptedAt: Date };

/** The endpoint's latest `limit` attempts, newest first. */
export async function listDeliveries(db: Queryable, endpointId: string, limit: number): Promise<DeliveryRecord[]> {
  return db.query<DeliveryRecord>(
    `SELECT attempted_at AS "attemptedAt", delivery_id AS "deliveryId", attempt, after_position::text AS "afterPosition",
            through_position::text AS "throughPosition", changes, outcome, status, duration_ms AS "durationMs"
       FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY attempted_at DESC LIMIT $2`,
    [endpointId, limit],
  );
}

export async function pruneDeliveries(db: Queryable, before: Date): Promise<number> {
  return (await db.query('DELETE FROM webhook_deliveries WHERE attempted_at < $1 RETURNING 1', [before])).length;
}

/** Each endpoint's oldest change not delivered yet (null: none), for the feed-lag metric. */
export async function oldestUndelivered(db: Queryable): Promise<{ id: string; oldest: Date | null }[]> {
  return db.query<{ id: string; oldest: Date | null }>(
    `SELECT e.id,
            (SELECT min(first.changed_at) FROM unnest(e.companies) AS co(id)
               CROSS JOIN LATERAL (
                     SELECT c.changed_at FROM changes c
                      WHERE c.company_id = co.id AND c.position > e.delivered_position AND (e.events IS NULL OR c.kind = ANY(e.events))
                      ORDER BY c.position LIMIT 1) first) AS oldest
       FROM webhook_endpoints e`,
  );
}
