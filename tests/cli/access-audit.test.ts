// The access-audit command (access-audit.cases.ts): in `npm test` on one engine, PostgreSQL
// where it is set; access-audit.slow.test.ts runs it on the other in `npm run test:all`.
import { commandEngines } from '../helpers/databases.js';
import { accessAuditCommand } from './access-audit.cases.js';

accessAuditCommand(commandEngines.fast);
