// Data that changes, against the reference model (changesComparison.ts), on each engine:
// two random sequences of fifteen change files (enough that every kind of change and a
// refused file come up), every answer and derived structure checked after each.
// changes.model.slow.test.ts goes on from where this stops (npm run test:all). SEED,
// SEQUENCES, STEPS and QUERIES replay others.
import { changesAgainstModel } from './changesComparison.js';

changesAgainstModel({
  firstSeed: Number(process.env.SEED ?? 101),
  sequences: Number(process.env.SEQUENCES ?? 2),
  steps: Number(process.env.STEPS ?? 15),
  queries: Number(process.env.QUERIES ?? 8),
});
