// What a running import says of itself, for a command to show (server/cli/importProgress.ts):
// the step it is in, and how many records it has read and checked so far.
export type ImportStep = 'waiting for another import' | 'reading and checking' | 'resolving' | 'checking against the database' | 'writing' | 'committing';

export interface ImportProgress {
  step(step: ImportStep): void;
  /** Records read and checked so far (a chunk at a time). */
  checked(records: number): void;
}
