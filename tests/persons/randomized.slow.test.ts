// The long run of the comparison with the reference model (modelComparison.ts): the
// datasets after randomized.test.ts's, so that the two together compare seeds 1 to 30
// with companies inline on each engine, and ten datasets with the credential join.
import { compareWithModel } from './modelComparison.js';

compareWithModel({ firstSeed: 7, datasets: 24, queries: 25 });
