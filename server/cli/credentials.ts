// npm run credentials -- create <name> <companyId>...   prints the new token once
// npm run credentials -- list
// npm run credentials -- revoke <credentialId>
import { ConfigError, loadConfig } from '../config.js';
import { insertCredential, listCredentials, revokeCredential, unknownCompanies } from '../db/credentials.js';
import { hashToken, newToken } from '../domain/tokens.js';
import { fail, openCliDatabase } from './database.js';

const usage = 'usage: credentials create <name> <companyId>... | list | revoke <credentialId>';

async function main(args: string[]): Promise<void> {
  const [command, ...rest] = args;
  if (!command || !['create', 'list', 'revoke'].includes(command)) fail(usage);
  const db = await openCliDatabase(loadConfig());
  try {
    if (command === 'create') {
      const [name, ...companies] = rest;
      if (!name || companies.length === 0) fail(usage);
      const unknown = await unknownCompanies(db, companies);
      if (unknown.length) fail(`unknown companies: ${unknown.join(', ')} (import them first)`);
      const token = newToken();
      const id = await insertCredential(db, name, hashToken(token), companies);
      process.stdout.write(`created credential ${id} "${name}" for ${companies.join(', ')}\n`);
      process.stdout.write(`token (shown once, store it now): ${token}\n`);
    } else if (command === 'list') {
      for (const c of await listCredentials(db)) {
        const state = c.revokedAt ? `revoked ${c.revokedAt.toISOString()}` : 'active';
        process.stdout.write(`${c.id}  ${state.padEnd(32)}  ${c.name}  [${c.companies.join(', ')}]\n`);
      }
    } else {
      const [id] = rest;
      if (!id || !/^[0-9a-f-]{36}$/i.test(id)) fail(usage);
      if (!(await revokeCredential(db, id))) fail(`no active credential ${id}`);
      process.stdout.write(`revoked credential ${id}; running servers stop accepting it within CREDENTIAL_CACHE_MS\n`);
    }
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).catch((error) => fail(error instanceof ConfigError ? `configuration error: ${error.message}` : String(error?.message ?? error)));
