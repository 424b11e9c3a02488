// The webhook commands (webhooks.cases.ts): in `npm test` on one engine, PostgreSQL where it
// is set; webhooks.slow.test.ts runs them on the other in `npm run test:all`. The command
// lines refused before a database is opened are checked here alone.
import { commandEngines } from '../helpers/databases.js';
import { webhookArguments, webhookCommands } from './webhooks.cases.js';

webhookCommands(commandEngines.fast);
webhookArguments();
