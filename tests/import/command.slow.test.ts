// npm run import as an operator runs it (command.cases.ts), on the engine command.test.ts
// leaves out: PGlite where PostgreSQL is set.
import { commandEngines } from '../helpers/databases.js';
import { importCommands } from './command.cases.js';

importCommands(commandEngines.slow);
