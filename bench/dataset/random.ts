// The one seeded PRNG lives with the generator in server/dataset/ (the demo draws from it
// too); the bench's own draws (scenarios, samples) take it from here.
export { Random, WeightedSampler, zipfWeights } from '../../server/dataset/random.js';
