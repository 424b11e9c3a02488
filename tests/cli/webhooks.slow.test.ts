// The webhook commands (webhooks.cases.ts) on the engine `npm test` leaves out (PGlite where
// PostgreSQL is set; nothing more where it is not).
import { commandEngines } from '../helpers/databases.js';
import { webhookCommands } from './webhooks.cases.js';

webhookCommands(commandEngines.slow);
