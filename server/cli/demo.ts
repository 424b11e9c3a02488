// npm run demo:export -- [people] [seed]   writes the demo dataset as NDJSON to stdout,
// a worked example of the import format.
import { demoDataset } from '../demo/dataset.js';

const [people, seed] = process.argv.slice(2).map(Number);
for (const record of demoDataset({ people: people || undefined, seed: seed || undefined })) {
  process.stdout.write(`${JSON.stringify(record)}\n`);
}
