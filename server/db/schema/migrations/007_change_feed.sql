-- The change feed (docs/decisions/0022-change-feed.md): every committed write of a
-- company's data, in commit order, as ids and kinds (never a value). The rows are written
-- by the triggers in server/db/derived/upkeep.sql ("The change feed"), so every writer
-- (import, erasure, the CLIs, plain SQL) records its changes; Get changes reads them
-- (server/db/reads/changes.ts) and housekeeping prunes them after CHANGES_RETENTION.
CREATE TABLE changes (
  position bigint NOT NULL,
  company_id text NOT NULL,
  kind text NOT NULL,
  employee_id uuid,
  person_id uuid,
  changed_at timestamptz NOT NULL,
  CONSTRAINT changes_pkey PRIMARY KEY (position)
);
-- A company's changes in order: what a page of the feed reads.
CREATE INDEX changes_company_position ON changes (company_id, position);

-- Where the positions come from: one row that every writing transaction updates when it
-- records its changes (after the writers' lock), holding its row lock until commit. So
-- positions are handed out in commit order: a transaction that commits later takes the
-- row later and gets higher positions, and a reader that has seen a position has seen
-- every lower one. `position` is the last position handed out; `at` the instant it was
-- handed out with (changed_at never goes back, even if the clock does);
-- `time_states_through` the instant up to which states that change with time alone (an
-- invitation's expiry) have been recorded.
CREATE TABLE change_feed_head (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  position bigint NOT NULL,
  at timestamptz NOT NULL,
  time_states_through timestamptz NOT NULL
);
INSERT INTO change_feed_head (position, at, time_states_through) VALUES (0, 'epoch', now());

-- How far the feed has been pruned: changes at or below this position may be gone, so a
-- cursor below it is answered 410 (resync_required). Its own row, so that pruning never
-- waits for a writer holding the head.
CREATE TABLE change_feed_pruned (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  through bigint NOT NULL
);
INSERT INTO change_feed_pruned (through) VALUES (0);

-- Pending invitations by expiry: the instants at which a membership status changes with
-- no write (0008), found by the feed's clock a few at a time.
CREATE INDEX employees_pending_invitation_expiry ON employees (invitation_expires_at) WHERE invitation_status = 'pending';
