// credentials.md's session and mistakes (credentials-docs.cases.ts): in `npm test` on one
// engine, PostgreSQL where it is set; the .slow.test.ts beside it runs the other.
import { commandEngines } from '../helpers/databases.js';
import { credentialsDocs } from './credentials-docs.cases.js';

credentialsDocs(commandEngines.fast);
