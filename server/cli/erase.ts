// npm run erase -- person <personId> | company <companyId> | employment <employmentId> [--dry-run] [--json] | vacuum
// Removes the data and every copy the service keeps of it, in one transaction, and says
// what went (ids and counts only: this output holds no personal value). See docs/operating/erasure.md.
import { loadConfig } from '../config.js';
import { rewriteTablesWithPersonalData, tablesWithPersonalData } from '../db/stores/erasure.js';
import { companyIdPattern } from '../domain/fields.js';
import { canonicalUuid } from '../domain/formats.js';
import { type Erasure, ErasureRefused, eraseCompany, eraseEmployment, erasePerson } from '../privacy/erasure.js';
import { commandOf, fail, failOn, failUsage, parseCommandLine } from './commandLine.js';
import { openCliDatabase } from './database.js';

const usage = `usage: npm run erase -- <subject> <id> [--dry-run] [--json] | vacuum
  person <personId>          the person and every employment linked to them, in every company
  company <companyId>        offboards the company: its employments, the people left with no employment
                             anywhere, and its place in every credential
  employment <employmentId>  one employment record, linked or not (e.g. an unlinked look-alike a person erasure reported)
  --dry-run                  report what would be removed; change nothing
  --json                     the report as one JSON object
npm run erase -- vacuum      rewrites the tables holding personal data and the planner statistics (VACUUM FULL),
                             so erased rows leave their files; blocks reads of each table while it is rewritten
Backups, the HR source and dead rows still hold erased data: docs/operating/erasure.md.`;

const COMPANY_ID_PATTERN = new RegExp(companyIdPattern);

async function main(argv: string[]): Promise<void> {
  const parsed = parseCommandLine(argv, { 'dry-run': { type: 'boolean', default: false }, json: { type: 'boolean', default: false } }, usage);
  const { values, positionals } = parsed;
  const [subject, [id]] = commandOf(positionals, { person: [1, 1], company: [1, 1], employment: [1, 1], vacuum: [0, 0] }, usage);
  if (subject === 'vacuum' || id === undefined) return vacuum(values['dry-run'] || values.json);
  // Checked before the database is opened: a typo costs nothing.
  if (subject === 'company' ? !COMPANY_ID_PATTERN.test(id) : !canonicalUuid(id)) {
    fail(subject === 'company' ? `not a company id: "${id}" (${COMPANY_ID_PATTERN.source})` : `${subject} id must be a UUID; got "${id}"`);
  }

  const db = await openCliDatabase(loadConfig(), 'erase');
  try {
    const options = { dryRun: values['dry-run'] };
    const report =
      subject === 'person'
        ? await erasePerson(db, id, options)
        : subject === 'company'
          ? await eraseCompany(db, id, options)
          : await eraseEmployment(db, id, options);
    process.stdout.write(values.json ? `${JSON.stringify(report)}\n` : describe(report));
  } catch (error) {
    if (error instanceof ErasureRefused) fail(`${error.message}; nothing was changed`);
    throw error;
  } finally {
    await db.close();
  }
}

async function vacuum(withOptions: boolean): Promise<void> {
  if (withOptions) failUsage(`vacuum takes no options`, usage);
  const db = await openCliDatabase(loadConfig(), 'erase');
  try {
    const started = Date.now();
    await rewriteTablesWithPersonalData(db);
    process.stdout.write(`rewrote ${[...tablesWithPersonalData, 'pg_statistic'].join(', ')} in ${Date.now() - started} ms\n`);
  } finally {
    await db.close();
  }
}

function describe(r: Erasure): string {
  const verb = r.dryRun ? 'would erase' : 'erased';
  const lines: string[] = [];
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  switch (r.subject) {
    case 'person':
      lines.push(
        `${verb} person ${r.id}: ${plural(r.persons, 'person')}, ${plural(r.employments, 'employment')}${r.companies.length ? ` (in ${r.companies.join(', ')})` : ''}`,
      );
      break;
    case 'company': {
      lines.push(
        `${verb} company ${r.id}: ${plural(r.companies, 'company')}, ${plural(r.employments.linked + r.employments.unlinked, 'employment')} (${r.employments.unlinked} unlinked), ` +
          `${plural(r.persons.length, 'person')} left with no employment; ${plural(r.personsKept, 'person')} kept (employed elsewhere)`,
      );
      for (const c of r.credentials) {
        lines.push(
          `  credential ${c.id} "${c.name}": ${c.companiesLeft.length ? `keeps [${c.companiesLeft.join(', ')}]` : 'keeps no company: its token still authenticates and sees nobody; revoke it if it is no longer needed'}`,
        );
      }
      lines.push(`  ${plural(r.replacedSetMemberships, 'membership')} of company sets credentials no longer point at`);
      break;
    }
    case 'employment':
      lines.push(`${verb} employment ${r.id} in ${r.companyId}${r.personId ? ` of person ${r.personId}` : ' (unlinked)'}`);
      if (r.personLeftWithoutEmployment)
        lines.push(`  person ${r.personId} is left with no employment: no credential sees them; npm run erase -- person ${r.personId} removes them`);
      break;
  }
  if (r.subject !== 'employment') {
    if (r.auditEntriesKept)
      lines.push(
        `kept: ${plural(r.auditEntriesKept, 'access audit entry').replace('entrys', 'entries')} naming ${r.subject === 'person' ? 'this person' : 'these people'} (ids only, deleted after AUDIT_RETENTION_DAYS)`,
      );
    if (r.unlinkedLookalikes.length) {
      lines.push(
        `not erased: ${plural(r.unlinkedLookalikes.length, 'unlinked employment')} sharing an email, phone, external id, or names and date of birth with ${r.subject === 'person' ? 'this person' : 'these people'}; check each and erase it with npm run erase -- employment <id>:`,
      );
      for (const lookalike of r.unlinkedLookalikes) lines.push(`  ${lookalike}`);
    }
  }
  lines.push(
    r.dryRun
      ? 'dry run: nothing was changed'
      : 'still holding it: backups, the HR source (a re-import brings it back), dead rows until VACUUM (docs/operating/erasure.md)',
  );
  return `${lines.join('\n')}\n`;
}

main(process.argv.slice(2)).catch(failOn);
