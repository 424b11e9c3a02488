// `npm run migrate` on the engine migrate.test.ts does not run it on (commandEngines).
import { commandEngines } from '../helpers/databases.js';
import { migrateCommand } from './migrate.cases.js';

migrateCommand(commandEngines.slow);
