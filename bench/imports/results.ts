// What an import run keeps (imports.json): its rows, one a file applied, with the state the
// database was in and the floors beside; the searches during a change; and the previous
// run's figures, for the comparison of the two (agreement.ts).
import type { RunStamp } from '../machine.js';
import type { ChecksAlone } from './checksAlone.js';
import type { DatabaseState } from './databaseState.js';
import type { FeedReads } from './feed.js';
import type { ImportRun } from './importCli.js';
import type { SearchFigures } from './searches.js';
import type { WalWritten } from './walWritten.js';
import type { WebhookDelivery } from './webhookDelivery.js';

/** What each row measures, and how the report names it. */
export const LABELS = {
  'initial load': 'initial load (whole dataset, empty database)',
  'unchanged re-apply': 're-applied unchanged (whole dataset)',
  change: 'change file',
  'change inverse': 'change inverse (restores the data)',
  churn: 'churn file',
  'churn inverse': 'churn inverse (restores the data)',
  'change while searching': 'change file, searches running',
  'change inverse after searching': 'change inverse (restores the data, after the searches)',
  'initial load, feed off': 'initial load, change feed off',
  'change, feed off': 'change file, change feed off',
  'churn, feed off': 'churn file, change feed off',
} as const;
export type ImportMeasurement = keyof typeof LABELS;

/** The files also applied with the change feed's triggers off (feed.ts), and their rows' measurement then. */
export const FEED_OFF = {
  'initial load': 'initial load, feed off',
  change: 'change, feed off',
  churn: 'churn, feed off',
} as const satisfies Partial<Record<ImportMeasurement, ImportMeasurement>>;
export type FeedMeasured = keyof typeof FEED_OFF;

export interface ImportRow extends ImportRun, Partial<WalWritten> {
  measurement: ImportMeasurement;
  /** 1, 2, …: the file's turn in this run. */
  repetition: number;
  /** People in the database the file was applied to (0: the initial load's empty database). */
  databasePeople: number;
  /** The state the database was brought to just before (none: an inverse, right after its change). */
  state?: DatabaseState;
  /**
   * The floor a file is held to, its stored rows alone (the fastest of storedAloneEach): a change or churn
   * file's measured from the same state after the inverse; a whole-file load's, the whole file's rows written
   * into the same empty database just before it (loadedRowsAlone.ts), which its re-apply shares.
   */
  storedAloneSeconds?: number;
  /** Each of the floor's measurements (storedRowsAlone.ts, loadedRowsAlone.ts). */
  storedAloneEach?: number[];
}

export interface ImportRunResult extends RunStamp {
  postgresVersion?: string;
  /** Which server: the bench's own (and where its data is kept) or the one --database-url named. */
  server?: string;
  /** The settings an import's cost depends on most: its buffer cache, the WAL between checkpoints. */
  postgresSettings?: Record<string, string>;
  prewarmed?: boolean;
  /** The change and churn files, searches and deliveries ran on fresh copies of the bench database (workingCopy.ts); runs before 2026-11-29 evening did not. */
  workingCopies?: boolean;
  options: { people: number; kinds: string[]; samples: number };
  /** How many times each file was applied. */
  repetitions?: number;
  /** The bench database: its name, not its URL. */
  databases: { name: string; people: number; companies: number }[];
  /** The whole dataset as one NDJSON file (the initial load's). */
  fileMb?: number;
  /** That file's records checked alone, no database: the bound on the whole-file loads (checksAlone.ts). */
  checksAlone?: ChecksAlone;
  /** What each change file does. */
  notes: string[];
  rows: ImportRow[];
  searches?: { filters: string } & SearchFigures;
  /** Pages of 1,000 changes read from the feed the first initial load recorded (the whole dataset's). */
  feedReads?: FeedReads;
  /** A change from an import's commit to a webhook receiver on this machine, on a copy of the bench database. */
  webhookDelivery?: WebhookDelivery;
  /** The run before this one at the same scale (the imports.json this one replaces): what agreement.ts compares. */
  previous?: PreviousRun;
}

/** A run's figures by row: what two runs are compared on. */
export type RunFigures = Record<string, number>;

/** The previous run's figures, as this run keeps them. */
export interface PreviousRun {
  startedAt: string;
  revision: string;
  figures: RunFigures;
}
