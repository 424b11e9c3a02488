// A feed row as the change object a delivery's body holds: the feed's own shape (the
// Change schema of GET /v1/companies/{companyId}/changes), ids and kinds only, never a
// value of a person (docs/consuming/webhooks.md).
import type { ChangeRow } from '../db/stores/webhooks.js';
import { encodeChangeCursor } from '../domain/changeCursor.js';

export interface ChangeObject {
  /** The feed's cursor of this change (domain/changeCursor.ts): what `after` and `replay --from` take. */
  position: string;
  kind: string;
  companyId: string;
  employeeId: string | null;
  personId: string | null;
  changedAt: string;
}

export function changeObject(row: ChangeRow): ChangeObject {
  return {
    position: encodeChangeCursor(BigInt(row.position)),
    kind: row.kind,
    companyId: row.companyId,
    employeeId: row.employeeId,
    personId: row.personId,
    changedAt: row.changedAt.toISOString(),
  };
}

/** A delivery's body: the batch's change objects, in feed order. */
export function deliveryBody(rows: readonly ChangeRow[]): string {
  return JSON.stringify({ changes: rows.map(changeObject) });
}
