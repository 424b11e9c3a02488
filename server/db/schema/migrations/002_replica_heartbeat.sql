-- The primary's clock as its standbys replay it (server/db/heartbeat.ts). Every instance
-- that reads from replicas commits here, every few hundred milliseconds, the instant its
-- heartbeat statement started. A standby's snapshot that holds a heartbeat holds every
-- change the primary committed before that instant (docs/decisions/0016-replicas-and-freshness.md),
-- so the heartbeat it holds is the asOf of an answer read there.
CREATE TABLE replica_heartbeat (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  at timestamptz NOT NULL
);

-- Until the first heartbeat, the epoch: it promises nothing, so it is honest, and every
-- database migrated holds the same row.
INSERT INTO replica_heartbeat (at) VALUES ('epoch');
