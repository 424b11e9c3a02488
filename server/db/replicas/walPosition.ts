// Positions in the primary's write-ahead log (LSNs), which order everything a standby
// replays: a replica that has replayed up to a position shows every transaction whose
// commit record lies before it. They say how far a database had got when it answered
// (decision 0016), so that a read can go where the data it depends on is.

/**
 * How far the answering database had got, read after the statement's snapshot was taken,
 * so every commit the snapshot shows lies before it: on a standby the position it has
 * replayed, on the primary the position it writes next.
 */
export const READ_POSITION = 'coalesce(pg_last_wal_replay_lsn(), pg_current_wal_insert_lsn())::text';

/** An LSN as PostgreSQL writes it (`16/B374D848`), as one ordered number. */
export function walPosition(lsn: string): bigint {
  const slash = lsn.indexOf('/');
  return (BigInt(`0x${lsn.slice(0, slash)}`) << 32n) | BigInt(`0x${lsn.slice(slash + 1)}`);
}
