// credentials.md's session and mistakes (credentials-docs.cases.ts) on the engine `npm test`
// leaves out (PGlite where PostgreSQL is set; nothing more where it is not).
import { commandEngines } from '../helpers/databases.js';
import { credentialsDocs } from './credentials-docs.cases.js';

credentialsDocs(commandEngines.slow);
