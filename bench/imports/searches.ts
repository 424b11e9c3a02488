// The searches run while a change file is applied, as the full run draws them (run.ts):
// each person kind's filters (at most 100 per kind), for the credential of one large
// company, derived as the service derives them from its configuration.
import { loadConfig } from '../../server/config.js';
import type { Queryable } from '../../server/db/engines/database.js';
import { findActiveCredential } from '../../server/db/stores/credentials.js';
import type { PersonFilter } from '../../server/domain/persons.js';
import { hashToken } from '../../server/domain/tokens.js';
import type { DatasetInfo } from '../dataset/build.js';
import { drawSamples } from '../dataset/samples.js';
import { childEnv } from '../processes.js';
import { type PersonKind, personWorkload } from '../scenarios.js';

const PER_KIND = 100;

export async function searchFilters(
  db: Queryable,
  databaseUrl: string,
  info: DatasetInfo,
  kinds: readonly PersonKind[],
  samples: number,
): Promise<PersonFilter[]> {
  const oneLarge = info.credentials.find((c) => c.key === 'oneLarge');
  if (!oneLarge) throw new Error('the bench dataset has no credential of one large company');
  const held = await findActiveCredential(db, hashToken(oneLarge.token));
  if (!held) throw new Error('the credential of one large company is not stored in the bench database');
  const drawn = await drawSamples(db, oneLarge.companies, { count: samples, seed: info.scale.seed });
  const config = loadConfig(childEnv({ APP_ENV: 'development', DEMO_DATA: 'false', DATABASE_URL: databaseUrl }));
  return kinds.flatMap((kind) => personWorkload(kind, drawn, held, config).direct.slice(0, PER_KIND));
}
