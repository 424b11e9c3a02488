// The change file's two runs, as the change phase (phases.ts) labels them and the report
// finds them: its own time is measured alone, the searches' p99 on a second run.
export const CHANGE_ALONE = 'change file';
export const CHANGE_WHILE_SEARCHING = 'change file, searches running';
