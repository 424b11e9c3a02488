// The server against the reference model (modelComparison.ts), on each engine: a few
// random datasets, enough that each filter, each credential shape and both ways of
// authorizing in SQL are compared on every change. randomized.slow.test.ts goes on from
// where this stops, over many more (npm run test:all). SEED and DATASETS replay others.
import { compareWithModel } from './modelComparison.js';

compareWithModel({
  firstSeed: Number(process.env.SEED ?? 1),
  datasets: Number(process.env.DATASETS ?? 6),
  queries: Number(process.env.QUERIES ?? 25),
});
