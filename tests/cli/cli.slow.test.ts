// The operator commands (cli.cases.ts) on the engine `npm test` leaves out (PGlite where
// PostgreSQL is set; nothing more where it is not).
import { commandEngines } from '../helpers/databases.js';
import { operatorCommands } from './cli.cases.js';

operatorCommands(commandEngines.slow);
