// npm run import as an operator runs it (command.cases.ts): in `npm test` on one engine,
// PostgreSQL where it is set; command.slow.test.ts runs it on the other in `npm run test:all`.
import { commandEngines } from '../helpers/databases.js';
import { importCommands } from './command.cases.js';

importCommands(commandEngines.fast);
