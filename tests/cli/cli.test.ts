// The operator commands (cli.cases.ts): in `npm test` on one engine, PostgreSQL where it is
// set; cli.slow.test.ts runs it on the other in `npm run test:all`.
import { commandEngines } from '../helpers/databases.js';
import { operatorCommands } from './cli.cases.js';

operatorCommands(commandEngines.fast);
