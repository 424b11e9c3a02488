// The proof of erasure (erasure.cases.ts) on the engine `npm test` leaves out (PGlite where
// PostgreSQL is set; nothing more where it is not).
import { commandEngines } from '../helpers/databases.js';
import { erasureProof } from './erasure.cases.js';

erasureProof(commandEngines.slow);
