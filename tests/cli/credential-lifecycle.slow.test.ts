// The credential lifecycle commands (credential-lifecycle.cases.ts) on the engine `npm test`
// leaves out (PGlite where PostgreSQL is set; nothing more where it is not).
import { commandEngines } from '../helpers/databases.js';
import { credentialLifecycle } from './credential-lifecycle.cases.js';

credentialLifecycle(commandEngines.slow);
