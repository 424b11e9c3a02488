// The long run of changing data against the reference model (changesComparison.ts): four
// more sequences, after changes.model.test.ts's two (seeds 101 and 102), on each engine.
import { changesAgainstModel } from './changesComparison.js';

changesAgainstModel({ firstSeed: 103, sequences: 4, steps: 15, queries: 8 });
