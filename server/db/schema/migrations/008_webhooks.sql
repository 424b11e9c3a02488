-- Webhook endpoints and their deliveries (docs/decisions/0023-webhooks.md). An endpoint
-- follows the change feed (`changes`, migration 007) of its companies from a cursor, one
-- batch in flight at a time; everything a worker needs to go on after a restart, or on
-- another instance, is here.
CREATE TABLE webhook_endpoints (
  id uuid NOT NULL,
  url text NOT NULL,
  companies text[] NOT NULL,
  -- The change kinds delivered; NULL: every kind, those added by later releases included.
  events text[],
  -- Standard Webhooks secrets (whsec_<base64>). The service signs with them, so they are
  -- stored as they are (a hash would not sign); only `add` and `rotate-secret` print one.
  secret text NOT NULL,
  previous_secret text,
  previous_secret_valid_until timestamptz,
  -- The feed position delivered through: the next batch starts after it.
  delivered_position bigint NOT NULL,
  -- The batch being delivered, fixed at its first attempt so that every retry sends the
  -- same changes under the same webhook-id: (delivered_position, pending_through].
  pending_id text,
  pending_through bigint,
  attempts integer NOT NULL DEFAULT 0,
  first_failed_at timestamptz,
  next_attempt_at timestamptz NOT NULL,
  -- The instance delivering now (one in flight per endpoint), until lease_until; a lease
  -- left by a stopped instance runs out and another takes the endpoint over.
  lease_token uuid,
  lease_until timestamptz,
  disabled_at timestamptz,
  disabled_reason text,
  created_at timestamptz NOT NULL,
  CONSTRAINT webhook_endpoints_pkey PRIMARY KEY (id),
  CONSTRAINT webhook_endpoints_companies_named CHECK (cardinality(companies) > 0),
  CONSTRAINT webhook_endpoints_events_named CHECK (events IS NULL OR cardinality(events) > 0),
  CONSTRAINT webhook_endpoints_pending_whole CHECK ((pending_id IS NULL) = (pending_through IS NULL))
);
CREATE INDEX webhook_endpoints_due ON webhook_endpoints (next_attempt_at) WHERE disabled_at IS NULL;

-- Every attempt, for `npm run webhooks -- deliveries`: ids, positions and outcomes only
-- (a receiver's answer is not kept). The worker deletes attempts older than 7 days.
CREATE TABLE webhook_deliveries (
  endpoint_id uuid NOT NULL,
  attempted_at timestamptz NOT NULL,
  delivery_id text NOT NULL,
  attempt integer NOT NULL,
  after_position bigint NOT NULL,
  through_position bigint NOT NULL,
  changes integer NOT NULL,
  -- delivered, failed (an answer other than 2xx), timeout, unreachable, refused (the
  -- target's address is not allowed).
  outcome text NOT NULL,
  status integer,
  duration_ms integer NOT NULL,
  CONSTRAINT webhook_deliveries_endpoint FOREIGN KEY (endpoint_id) REFERENCES webhook_endpoints (id) ON DELETE CASCADE
);
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, attempted_at);
CREATE INDEX webhook_deliveries_by_age ON webhook_deliveries (attempted_at);
