// Moves the spooled access-audit entries (auditSpool.ts) into access_audit: every
// SHIP_INTERVAL_MS, and all of them at shutdown. Each batch and the file's new shipped
// offset commit in one statement (db/stores/accessAudit.ts), so whatever crashes when, an entry
// is inserted exactly once. Only whole lines are shipped.
//
// Ownership: this instance holds a session-level advisory lock per file of its own, on a
// connection of its own (db.session(): pooled connections are closed when idle, which
// would let the lock go). The shipping runs on that connection too, so it never takes a
// pooled connection from a request (PG_POOL_MAX stays the requests' own). A file whose lock can be taken has no live owner: at start and
// every ADOPT_INTERVAL_MS the instance adopts such files in the spool directory (those of
// this database: they have a row), ships them from their recorded offset and deletes them.
// So a crashed instance's entries are shipped by its restart or by a sibling on the volume.
//
// While the primary cannot be reached (its lock connection lost, no new file can be
// registered), entries go on to an offline file: created at once, with neither lock nor
// row, so no other instance adopts it while its owner lives. Once the primary answers
// again the owner locks it, makes its row and ships it like any other. An owner never
// appends to an offline file quiet for OFFLINE_REUSE_MS (it opens another), and another
// instance of the same database (the name says which) adopts one only once it has been
// quiet for OFFLINE_ADOPT_QUIET_MS: so one whose owner died is shipped too, and one whose
// owner lives is never taken from it.
import { accessSync, constants, existsSync, fstatSync, mkdirSync, openSync, readdirSync, readSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config.js';
import type { Database, Session } from '../db/engines/database.js';
import {
  auditSpoolDatabaseId,
  auditSpoolProgress,
  forgetAuditSpool,
  prepareAuditSpoolSession,
  registerAuditSpool,
  shipAuditSpoolBatch,
  tryLockAuditSpool,
  unlockAuditSpool,
} from '../db/stores/accessAudit.js';
import type { Logger } from '../observability/logger.js';
import { AuditSpool, closeSpoolFile, createSpoolFile, newSpoolName, offlinePrefix, offlineSpoolName, SPOOL_SUFFIX, type SpoolFile } from './auditSpool.js';

export const SHIP_INTERVAL_MS = 200;
export const ADOPT_INTERVAL_MS = 10_000;
/** A file fully shipped and this large is replaced by a new one. */
export const ROTATE_BYTES = 16 * 1024 * 1024;
/** Most bytes read and shipped in one statement. */
export const BATCH_BYTES = 1024 * 1024;
/**
 * An unlocked file written this recently is left for a later scan: its owner may be alive
 * and not yet have noticed that its lock's connection dropped (it then stops writing to it).
 */
export const ADOPT_QUIET_MS = 2_000;
/** An owner opens a new offline file rather than append to one quiet this long... */
export const OFFLINE_REUSE_MS = 5 * 60_000;
/** ...and another instance adopts an offline file only once it has been quiet this long. */
export const OFFLINE_ADOPT_QUIET_MS = 10 * 60_000;
const WARN_EVERY_MS = 10_000;

export interface ShipperOptions {
  intervalMs?: number;
  adoptIntervalMs?: number;
  rotateBytes?: number;
  batchBytes?: number;
  adoptQuietMs?: number;
  offlineAdoptQuietMs?: number;
}

interface Owned {
  file: SpoolFile;
  shipped: number;
  /** Locked and with its row; an offline file is not, until the primary answers again. */
  registered: boolean;
}

export class AuditShipper {
  private session: Session | undefined;
  /** This instance's files: the one appended to, and one being retired after a rotation. */
  private readonly owned = new Map<string, Owned>();
  private chain: Promise<void> = Promise.resolve();
  private busy = false;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  private lastAdoption = 0;
  private lastWarning = 0;
  private readonly options: Required<ShipperOptions>;

  private constructor(
    private readonly db: Database,
    private readonly dir: string,
    private readonly logger: Logger,
    readonly spool: AuditSpool,
    /** This database's name in offline files (db/stores/accessAudit.ts auditSpoolDatabaseId). */
    private readonly databaseId: string,
    options: ShipperOptions,
  ) {
    this.options = {
      intervalMs: SHIP_INTERVAL_MS,
      adoptIntervalMs: ADOPT_INTERVAL_MS,
      rotateBytes: ROTATE_BYTES,
      batchBytes: BATCH_BYTES,
      adoptQuietMs: ADOPT_QUIET_MS,
      offlineAdoptQuietMs: OFFLINE_ADOPT_QUIET_MS,
      ...options,
    };
  }

  /** Opens this instance's first spool file (the service does not start without one) and starts shipping. */
  static async start(db: Database, dir: string, logger: Logger, options: ShipperOptions = {}): Promise<AuditShipper> {
    if (!db.session) throw new ConfigError('AUDIT_DURABILITY=spool needs PostgreSQL (DATABASE_URL)');
    try {
      mkdirSync(dir, { recursive: true });
      accessSync(dir, constants.W_OK);
    } catch (error) {
      throw new ConfigError(`AUDIT_SPOOL_DIR (${dir}) cannot hold the access audit spool: ${(error as Error).message}`);
    }
    const shipper = new AuditShipper(db, dir, logger, new AuditSpool(undefined), await auditSpoolDatabaseId(db), options);
    await shipper.openFile();
    shipper.timer = setInterval(() => shipper.tick(), shipper.options.intervalMs).unref();
    shipper.tick();
    return shipper;
  }

  /** Ships everything appended so far, and rotates the file if it is due (tests; shutdown goes through close()). */
  drain(): Promise<void> {
    return this.enqueue(() => this.step());
  }

  /** Adopts the orphaned files now (tests; the timer does it every adoptIntervalMs). */
  adopt(): Promise<void> {
    return this.enqueue(() => this.adoptOrphans());
  }

  /**
   * After the last response: ships every entry, deletes this instance's files and lets
   * their locks go. If the database cannot take them, the files stay for adoption.
   */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.spool.switchTo(undefined);
    await this.enqueue(async () => {
      for (const owned of [...this.owned.values()]) await this.retire(owned);
    });
    const left = [...this.owned.keys()];
    if (left.length)
      this.logger.error({ files: left, dir: this.dir }, 'access audit spool not fully shipped at shutdown; the next instance on this directory ships it');
    await this.session?.close().catch(() => {});
    this.session = undefined;
  }

  private tick(): void {
    if (this.busy || this.closed) return;
    this.busy = true;
    void this.enqueue(async () => {
      await this.step();
      if (Date.now() - this.lastAdoption >= this.options.adoptIntervalMs) await this.adoptOrphans();
    }).finally(() => {
      this.busy = false;
    });
  }

  /** Ships this instance's files; a file replaced or given up goes once shipped, and a large one fully shipped is replaced. */
  private async step(): Promise<void> {
    this.renewOfflineFile();
    if (!this.spool.current && !this.closed) {
      try {
        await this.openFile();
      } catch (error) {
        // The primary cannot take a new file now: entries go on to an offline one.
        this.openOfflineFile();
        throw error;
      }
    }
    await this.registerOffline();
    await this.shipOwned();
    // A file the spool gave up (a failed write it could not undo) goes once shipped.
    for (const owned of [...this.owned.values()]) if (owned.file !== this.spool.current) await this.retire(owned);
    const current = this.spool.current && this.owned.get(this.spool.current.name);
    if (current && current.shipped === current.file.size && current.file.size >= this.options.rotateBytes) await this.rotate(current);
  }

  /** Runs `work` after whatever shipping is under way; a failure is logged (rate-limited) and retried by the next tick. */
  private enqueue(work: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(work).catch((error) => {
      if (Date.now() - this.lastWarning < WARN_EVERY_MS) return;
      this.lastWarning = Date.now();
      this.logger.warn({ err: error }, 'could not ship the access audit spool; retrying (entries stay in the spool file meanwhile)');
    });
    return this.chain;
  }

  /** A new file of this instance: lock taken, row made, file created, in that order; appends go there from now. */
  private async openFile(): Promise<void> {
    const session = await this.lockSession();
    let name = newSpoolName();
    while (!(await tryLockAuditSpool(session, name))) name = newSpoolName();
    await registerAuditSpool(session, name);
    const file = createSpoolFile(this.dir, name);
    this.owned.set(name, { file, shipped: 0, registered: true });
    this.spool.switchTo(file);
  }

  /** A new offline file (no database needed); appends go there from now. */
  private openOfflineFile(): void {
    if (this.closed) return;
    const file = createSpoolFile(this.dir, offlineSpoolName(this.databaseId));
    this.owned.set(file.name, { file, shipped: 0, registered: false });
    this.spool.switchTo(file);
  }

  /** An offline file appended to long ago might soon look orphaned to another instance: appends move to a new one. */
  private renewOfflineFile(): void {
    const current = this.spool.current && this.owned.get(this.spool.current.name);
    if (!current || current.registered) return;
    const quiet = Date.now() - fstatSync(current.file.fd).mtimeMs;
    if (quiet >= OFFLINE_REUSE_MS) this.openOfflineFile();
  }

  /** Locks this instance's offline files and makes their rows: from then on they are shipped like the others. */
  private async registerOffline(): Promise<void> {
    for (const owned of [...this.owned.values()]) {
      if (owned.registered) continue;
      const session = await this.lockSession();
      const locked = await tryLockAuditSpool(session, owned.file.name);
      // Taken for orphaned by another instance (quiet past OFFLINE_ADOPT_QUIET_MS): that
      // instance ships it while it holds the lock, and has shipped it once the file is gone.
      if (!locked || !existsSync(owned.file.path)) {
        if (locked) await unlockAuditSpool(session, owned.file.name);
        if (this.spool.current === owned.file) this.openOfflineFile();
        closeSpoolFile(owned.file);
        this.owned.delete(owned.file.name);
        continue;
      }
      await registerAuditSpool(session, owned.file.name);
      owned.registered = true;
      this.logger.info({ file: owned.file.name }, 'offline access audit spool registered; shipping it');
    }
  }

  private async lockSession(): Promise<Session> {
    if (this.session) return this.session;
    const session = await this.db.session!();
    try {
      await prepareAuditSpoolSession(session);
    } catch (error) {
      await session.close().catch(() => {});
      throw error;
    }
    this.session = session;
    // The locks went with the connection: another instance may adopt these files now, so
    // no more entries go to them. Appends go to an offline file until the primary takes a
    // new one (offline files, never locked, stay this instance's).
    void session.lost.then(() => {
      if (this.session !== session || this.closed) return;
      this.session = undefined;
      for (const owned of [...this.owned.values()]) {
        if (!owned.registered) continue;
        if (this.spool.current === owned.file) this.spool.switchTo(undefined);
        closeSpoolFile(owned.file);
        this.owned.delete(owned.file.name);
      }
      if (!this.spool.current) this.openOfflineFile();
      this.logger.error('access audit spool lock connection lost; its files are left for adoption, entries go to an offline file meanwhile');
    });
    return session;
  }

  private async shipOwned(): Promise<void> {
    for (const owned of [...this.owned.values()])
      if (owned.registered) owned.shipped = await this.ship(owned.file.name, owned.file.fd, owned.shipped, owned.file.size);
  }

  /**
   * Ships the whole lines of `fd` between `from` and `end`; returns how far the file is
   * shipped. An adopted file's lines are checked first (`check`); this instance's own were
   * written whole by JSON.stringify (a failed write is cut off or ends the file's use).
   */
  private async ship(name: string, fd: number, from: number, end: number, check = false): Promise<number> {
    let shipped = from;
    while (shipped < end) {
      const buffer = Buffer.alloc(Math.min(this.options.batchBytes, end - shipped));
      const read = readSync(fd, buffer, 0, buffer.length, shipped);
      const last = buffer.lastIndexOf(0x0a, read - 1);
      // No whole line left: an unfinished last line (whose write never returned) is not shipped.
      if (last < 0) break;
      const lines = buffer.subarray(0, last).toString('utf8').split('\n');
      const entries = !check
        ? lines
        : lines.filter((line) => {
            try {
              JSON.parse(line);
              return true;
            } catch {
              this.logger.error({ file: name }, 'access audit spool line unreadable; skipped');
              return false;
            }
          });
      const to = shipped + last + 1;
      const session = await this.lockSession();
      if (!(await shipAuditSpoolBatch(session, name, shipped, to, `[${entries.join(',')}]`))) {
        // Shipped elsewhere meanwhile (only possible if the lock was lost): go on from there.
        const progress = (await auditSpoolProgress(session, [name])).get(name);
        if (progress === undefined) throw new Error(`access audit spool ${name} has no progress row`);
        shipped = progress;
        continue;
      }
      shipped = to;
    }
    return shipped;
  }

  /** Appends go to a new file; the old one is shipped to its end and deleted. */
  private async rotate(current: Owned): Promise<void> {
    await this.openFile();
    await this.retire(current);
  }

  /** Ships an own file to its end, then deletes it, its row and its lock. */
  private async retire(owned: Owned): Promise<void> {
    if (!owned.registered) return;
    const { file } = owned;
    owned.shipped = await this.ship(file.name, file.fd, owned.shipped, file.size);
    if (owned.shipped < file.size) return;
    await this.remove(file.name, file.path);
    closeSpoolFile(file);
    this.owned.delete(file.name);
  }

  /** File first, then row: a row without its file is harmless; a file without its row would look like another database's. */
  private async remove(name: string, path: string): Promise<void> {
    unlinkSync(path);
    const session = await this.lockSession();
    await forgetAuditSpool(session, name);
    await unlockAuditSpool(session, name);
  }

  /** Ships and deletes every spool file in the directory that is this database's and whose owner is gone. */
  private async adoptOrphans(): Promise<void> {
    this.lastAdoption = Date.now();
    const names = readdirSync(this.dir).filter((name) => name.endsWith(SPOOL_SUFFIX) && !this.owned.has(name));
    if (!names.length) return;
    const session = await this.lockSession();
    const progress = await auditSpoolProgress(session, names);
    // This database's offline files that never got their row: their owner died offline.
    const offline = names.filter((name) => !progress.has(name) && name.startsWith(offlinePrefix(this.databaseId)));
    const orphans = [...[...progress].map(([name, from]) => ({ name, from, row: true })), ...offline.map((name) => ({ name, from: 0, row: false }))];
    for (const { name, from, row } of orphans) {
      const path = join(this.dir, name);
      const stat = statSync(path, { throwIfNoEntry: false });
      if (!stat || Date.now() - stat.mtimeMs < (row ? this.options.adoptQuietMs : this.options.offlineAdoptQuietMs)) continue;
      if (!(await tryLockAuditSpool(session, name))) continue;
      let locked = true;
      try {
        if (!row) await registerAuditSpool(session, name);
        const fd = openSync(path, 'r');
        try {
          const size = fstatSync(fd).size;
          const shipped = await this.ship(name, fd, from, size, true);
          // Bytes after the last newline: a line whose write never returned, so no response carried it.
          if (shipped < size)
            this.logger.warn(
              { file: name, bytes: size - shipped },
              'adopted access audit spool ended in an unfinished line; dropped (its response was never sent)',
            );
        } finally {
          closeSpoolFile({ name, path, fd, size: 0 });
        }
        await this.remove(name, path);
        locked = false;
        this.logger.info({ file: name }, 'adopted and shipped an orphaned access audit spool');
      } finally {
        if (locked) await unlockAuditSpool(session, name).catch(() => {});
      }
    }
  }
}
