// The write-ahead spool of AUDIT_DURABILITY=spool: before a person response is sent, its
// audit entry is appended to this instance's spool file as one NDJSON line, by a
// synchronous write. Once writeSync returns, the line is in the kernel's page cache: a
// crash of the service, SIGKILL included, cannot lose it; the shipper (auditShipper.ts)
// moves it into access_audit within its interval. A write that fails is undone and fails
// the request (503): no response leaves whose entry is not in the file.

import { randomUUID } from 'node:crypto';
import { closeSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { AuditedOperation } from '../db/accessAudit.js';
import { ServiceUnavailable } from '../errors.js';

export const SPOOL_SUFFIX = '.ndjson';

/** One spooled entry; the line's keys are access_audit's columns (db/accessAudit.ts ships it as is). */
export interface SpooledEntry {
  /** The response's asOf. */
  at: string;
  credentialId: string;
  operation: AuditedOperation;
  personIds: readonly string[];
  notFoundPersonId?: string;
}

export interface SpoolFile {
  name: string;
  path: string;
  fd: number;
  /** Bytes of whole lines written so far. */
  size: number;
}

/** A name no other instance can pick: host, pid and a random UUID. */
export function newSpoolName(): string {
  const host =
    hostname()
      .replace(/[^A-Za-z0-9.-]/g, '_')
      .slice(0, 64) || 'host';
  return `audit-${host}-${process.pid}-${randomUUID()}${SPOOL_SUFFIX}`;
}

/** Creates the file (it must not exist) for appending, and reading back by the shipper. */
export function createSpoolFile(dir: string, name: string): SpoolFile {
  const path = join(dir, name);
  return { name, path, fd: openSync(path, 'ax+', 0o640), size: 0 };
}

export class AuditSpool {
  /** The file appended to; undefined while there is none (its lock lost): appends then fail. */
  private file: SpoolFile | undefined;

  constructor(file: SpoolFile | undefined) {
    this.file = file;
  }

  get current(): SpoolFile | undefined {
    return this.file;
  }

  /** Appends the entry's line; throws ServiceUnavailable (the request fails) if it is not written whole. */
  append(entry: SpooledEntry): void {
    const file = this.file;
    if (!file) throw new ServiceUnavailable('the access audit spool has no file open');
    const line = Buffer.from(
      `${JSON.stringify({
        at: entry.at,
        credential_id: entry.credentialId,
        operation: entry.operation,
        person_ids: entry.personIds,
        not_found_person_id: entry.notFoundPersonId ?? null,
      })}\n`,
    );
    try {
      const written = writeSync(file.fd, line);
      if (written !== line.length) throw Object.assign(new Error(`short write to the audit spool: ${written} of ${line.length} bytes`), { code: 'ESHORT' });
    } catch (error) {
      // A part of the line may be in the file: cut it off, so the next entry starts a line
      // of its own. If even that fails, the file takes no more entries (the shipper opens another).
      try {
        ftruncateSync(file.fd, file.size);
      } catch {
        this.file = undefined;
      }
      throw new ServiceUnavailable('could not append to the access audit spool', { cause: error });
    }
    file.size += line.length;
  }

  /** Appends go to `next` from now on; returns the file they went to (undefined if none). */
  switchTo(next: SpoolFile | undefined): SpoolFile | undefined {
    const previous = this.file;
    this.file = next;
    return previous;
  }
}

/** Closes a file's descriptor, ignoring one already closed. */
export function closeSpoolFile(file: SpoolFile): void {
  try {
    closeSync(file.fd);
  } catch {}
}
