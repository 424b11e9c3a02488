// The access-audit command (access-audit.cases.ts) on the engine `npm test` leaves out (PGlite
// where PostgreSQL is set; nothing more where it is not).
import { commandEngines } from '../helpers/databases.js';
import { accessAuditCommand } from './access-audit.cases.js';

accessAuditCommand(commandEngines.slow);
