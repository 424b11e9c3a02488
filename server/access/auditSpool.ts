// The write-ahead spool of AUDIT_DURABILITY=spool: before a person response is sent, its
// audit entry is appended to this instance's spool file as one NDJSON line, by a
// synchronous write (one per event-loop turn for all the responses ready in it). Once
// writeSync returns, the line is in the kernel's page cache: a crash of the service,
// SIGKILL included, cannot lose it; the shipper (auditShipper.ts) moves it into
// access_audit within its interval. A write that fails is undone and fails
// the request (503): no response leaves whose entry is not in the file.

import { randomUUID } from 'node:crypto';
import { closeSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { AuditAppender, SpooledEntry } from '../domain/accessAudit.js';
import { ServiceUnavailable } from '../errors.js';

export const SPOOL_SUFFIX = '.ndjson';

/**
 * The entry as its spool line: a JSON object whose keys are access_audit's columns, the
 * ids as PostgreSQL's array literal (a string PostgreSQL reads in one go, far cheaper
 * than a JSON array of strings: db/stores/accessAudit.ts ships the lines as they are).
 */
export function spoolLine(entry: SpooledEntry): string {
  return JSON.stringify({
    at: entry.at,
    credential_id: entry.credentialId,
    operation: entry.operation,
    person_ids: `{${entry.personIds.join(',')}}`,
    not_found_person_id: entry.notFoundPersonId ?? null,
    // Only Search employees' entries name employment records; the others' lines stay as they were.
    ...(entry.employeeIds && { employee_ids: `{${entry.employeeIds.join(',')}}` }),
    // Why the read was allowed (group names are identifiers: the literal needs no quoting).
    purpose: entry.purpose,
    fields: `{${entry.fields.join(',')}}`,
  });
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
  return `audit-${hostPart()}-${process.pid}-${randomUUID()}${SPOOL_SUFFIX}`;
}

/**
 * The name of a file opened while the primary cannot be reached (no lock, no row yet): it
 * names its database, so that an instance of the same database can tell it is its own to
 * adopt if its owner died before the primary came back (auditShipper.ts).
 */
export function offlineSpoolName(databaseId: string): string {
  return `${offlinePrefix(databaseId)}${hostPart()}-${process.pid}-${randomUUID()}${SPOOL_SUFFIX}`;
}

export const offlinePrefix = (databaseId: string) => `audit-offline-${databaseId}-`;

function hostPart(): string {
  return (
    hostname()
      .replace(/[^A-Za-z0-9.-]/g, '_')
      .slice(0, 64) || 'host'
  );
}

/** Creates the file (it must not exist) for appending, and reading back by the shipper. */
export function createSpoolFile(dir: string, name: string): SpoolFile {
  const path = join(dir, name);
  return { name, path, fd: openSync(path, 'ax+', 0o640), size: 0 };
}

export class AuditSpool implements AuditAppender {
  /** The file appended to; undefined while there is none (its lock lost): appends then fail. */
  private file: SpoolFile | undefined;
  /** Lines of responses waiting for this loop turn's write, and those responses. */
  private lines: string[] = [];
  private waiting: { resolve: () => void; reject: (error: Error) => void }[] = [];

  constructor(file: SpoolFile | undefined) {
    this.file = file;
  }

  get current(): SpoolFile | undefined {
    return this.file;
  }

  /**
   * Appends the entry's line; resolves once it is in the file, rejects with
   * ServiceUnavailable (the request fails) if it was not written whole. The entries of
   * every response ready in one turn of the event loop go in one write (setImmediate):
   * under load that divides the cost of the system call between them.
   */
  append(entry: SpooledEntry): Promise<void> {
    if (!this.file) return Promise.reject(new ServiceUnavailable('the access audit spool has no file open'));
    if (!this.lines.length) setImmediate(() => this.write());
    this.lines.push(`${spoolLine(entry)}\n`);
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  /** Appends go to `next` from now on; returns the file they went to (undefined if none). */
  switchTo(next: SpoolFile | undefined): SpoolFile | undefined {
    const previous = this.file;
    this.file = next;
    return previous;
  }

  private write(): void {
    const { lines, waiting } = this;
    this.lines = [];
    this.waiting = [];
    const file = this.file;
    const text = Buffer.from(lines.join(''));
    try {
      if (!file) throw new Error('the access audit spool has no file open');
      const written = writeSync(file.fd, text);
      if (written !== text.length) throw Object.assign(new Error(`short write to the audit spool: ${written} of ${text.length} bytes`), { code: 'ESHORT' });
      file.size += text.length;
    } catch (error) {
      // A part of the lines may be in the file: cut it off, so the next entry starts a line
      // of its own. If even that fails, the file takes no more entries (the shipper opens another).
      if (file) {
        try {
          ftruncateSync(file.fd, file.size);
        } catch {
          if (this.file === file) this.file = undefined;
        }
      }
      const failure = new ServiceUnavailable('could not append to the access audit spool', { cause: error });
      for (const w of waiting) w.reject(failure);
      return;
    }
    for (const w of waiting) w.resolve();
  }
}

/** Closes a file's descriptor, ignoring one already closed. */
export function closeSpoolFile(file: SpoolFile): void {
  try {
    closeSync(file.fd);
  } catch {}
}
