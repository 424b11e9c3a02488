// The credential lifecycle commands (credential-lifecycle.cases.ts): in `npm test` on one
// engine, PostgreSQL where it is set; credential-lifecycle.slow.test.ts runs it on the other in
// `npm run test:all`. The arguments the commands refuse are checked here alone.
import { commandEngines } from '../helpers/databases.js';
import { credentialArguments, credentialLifecycle } from './credential-lifecycle.cases.js';

credentialLifecycle(commandEngines.fast);
credentialArguments();
