// A page of a company's change feed (docs/decisions/0022-change-feed.md), read by one
// statement, so the page, the head and how far the feed is pruned are one snapshot: a
// page that is not full may then end at the head, since every change at or below it is
// committed and in that snapshot (positions follow commit order, migration 007). asOf is
// the snapshot's instant (on a replica, the heartbeat it holds: replicas/heartbeat.ts).
import type { ChangeFeed, ChangeKind, ChangeRead, StoredChange } from '../../domain/changes.js';
import type { Queryable } from '../engines/database.js';
import { AS_OF, iso } from '../reads/employeeJson.js';

interface Row {
  as_of: string;
  head: string;
  pruned: string;
  position: string | null;
  kind: ChangeKind | null;
  employee_id: string | null;
  person_id: string | null;
  changed_at: string | null;
}

// $2 null: from the oldest change retained. A cursor below the pruned mark reads nothing
// (the answer is 410); one past the head reads nothing and keeps its place.
const PAGE = `
SELECT h.as_of, h.head::text AS head, h.pruned::text AS pruned, c.position::text AS position, c.kind,
       c.employee_id::text AS employee_id, c.person_id::text AS person_id, ${iso('c.changed_at')} AS changed_at
  FROM (SELECT ${iso(AS_OF)} AS as_of, (SELECT position FROM change_feed_head) AS head, (SELECT through FROM change_feed_pruned) AS pruned) h
  LEFT JOIN LATERAL (
    SELECT x.position, x.kind, x.employee_id, x.person_id, x.changed_at FROM changes x
     WHERE x.company_id = $1 AND x.position > coalesce($2::bigint, h.pruned) AND coalesce($2::bigint, h.pruned) >= h.pruned
     ORDER BY x.position LIMIT $3) c ON true
 ORDER BY c.position`;

export class SqlChangeFeed implements ChangeFeed {
  constructor(private readonly db: Queryable) {}

  async read(companyId: string, after: bigint | undefined, limit: number): Promise<ChangeRead> {
    const rows = await this.db.query<Row>(PAGE, [companyId, after?.toString() ?? null, limit], { prepared: true });
    const { as_of: asOf, head, pruned } = rows[0]!;
    const start = after ?? BigInt(pruned);
    if (start < BigInt(pruned)) return { pruned: true };
    const changes: StoredChange[] = rows
      .filter((r) => r.position !== null)
      .map((r) => ({ position: BigInt(r.position!), kind: r.kind!, employeeId: r.employee_id, personId: r.person_id, changedAt: r.changed_at! }));
    const last = changes.at(-1)?.position ?? start;
    // A full page ends at its last change; a shorter one has read everything up to the head.
    const next = changes.length === limit ? last : maxOf(last, BigInt(head));
    return { page: { asOf, changes, next } };
  }
}

const maxOf = (a: bigint, b: bigint) => (a > b ? a : b);
