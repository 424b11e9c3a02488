// The proof of erasure (erasure.cases.ts): in `npm test` on one engine, PostgreSQL where it is
// set; erasure.slow.test.ts runs it on the other in `npm run test:all`.
import { commandEngines } from '../helpers/databases.js';
import { erasureProof } from './erasure.cases.js';

erasureProof(commandEngines.fast);
