// The access audit's person index is merged in bulk, after the responses it records
// (access_audit_person_ids): that upkeep is not inside the measured windows, so the bench measures
// it apart and charges it back. Before the measurements the pending list is emptied;
// after them (every service stopped, so every entry shipped) each audited measurement's
// ids per response are read from the audit by its time window, and the merge of all
// that is pending is timed, giving PostgreSQL's CPU time per id merged.

import { openDatabase } from '../server/db/engines/openDatabase.js';
import { mergeAuditPersonIndex } from '../server/db/stores/accessAudit.js';
import { cpuMicros } from './cpu.js';

export interface AuditIndexMerge {
  /** Person ids recorded since the list was emptied: what the merge filed. */
  ids: number;
  /** CPU time of the backend that merged them. */
  cpuMs: number;
  wallMs: number;
}

/** Empties the pending list, so that the measurements start from none. */
export async function emptyAuditIndexPendingList(databaseUrl: string): Promise<Date> {
  const db = await openDatabase({ databaseUrl, poolMax: 1 });
  try {
    await mergeAuditPersonIndex(db);
    return new Date();
  } finally {
    await db.close();
  }
}

/** Ids per response in each window (one per audited measurement, same order); then the timed merge. */
export async function auditIndexUpkeep(
  databaseUrl: string,
  since: Date,
  windows: { from: number; to: number }[],
): Promise<{ idsPerResponse: (number | undefined)[]; merge: AuditIndexMerge }> {
  const db = await openDatabase({ databaseUrl, poolMax: 1 });
  try {
    const idsPerResponse: (number | undefined)[] = [];
    for (const { from, to } of windows) {
      const [w] = await db.query<{ responses: number; ids: number }>(
        `SELECT count(*)::int AS responses, coalesce(sum(cardinality(person_ids)), 0)::int AS ids
           FROM access_audit WHERE at >= $1 AND at < $2`,
        [new Date(from), new Date(to)],
      );
      idsPerResponse.push(w!.responses ? w!.ids / w!.responses : undefined);
    }
    const [pending] = await db.query<{ ids: number }>('SELECT coalesce(sum(cardinality(person_ids)), 0)::int AS ids FROM access_audit WHERE at >= $1', [since]);
    const [{ pid }] = (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')) as [{ pid: number }];
    const cpuBefore = cpuMicros(pid);
    const started = performance.now();
    await mergeAuditPersonIndex(db);
    const wallMs = performance.now() - started;
    const cpuAfter = cpuMicros(pid);
    return {
      idsPerResponse,
      merge: { ids: pending!.ids, wallMs, cpuMs: cpuBefore !== undefined && cpuAfter !== undefined ? (cpuAfter - cpuBefore) / 1000 : wallMs },
    };
  } finally {
    await db.close();
  }
}
