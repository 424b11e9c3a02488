// A delivery's change objects are the feed's: for the same changes, the webhook worker's
// (server/webhooks/changeObjects.ts) and Get changes' (the feed's read, as its operation
// shapes them) are equal, field for field.
import { expect, it } from 'vitest';
import { SqlChangeFeed } from '../../server/db/feed/read.js';
import { endpointChanges, findEndpoint } from '../../server/db/stores/webhooks.js';
import { encodeChangeCursor } from '../../server/domain/changeCursor.js';
import { importRecords } from '../../server/importing/index.js';
import { changeObject } from '../../server/webhooks/changeObjects.js';
import { addEndpoint } from '../../server/webhooks/endpoints.js';
import { smallDataset } from '../fixtures/small.js';
import { engines, throwawayDatabase } from '../helpers/databases.js';

it.each(engines)('deliveries carry the feed change objects on %s', async (engine) => {
  const { db, drop } = await throwawayDatabase(engine);
  try {
    await importRecords(
      db,
      smallDataset().filter((r) => r.type === 'company'),
      'US',
    );
    const { id } = await addEndpoint(db, { url: 'http://127.0.0.1:9/hooks', companies: ['acme-corp'], events: null, allowPrivateTargets: true });
    await importRecords(db, smallDataset(), 'US');
    const endpoint = (await findEndpoint(db, id))!;
    const delivered = (await endpointChanges(db, endpoint, 100)).map(changeObject);
    const read = await new SqlChangeFeed(db).read('acme-corp', BigInt(endpoint.deliveredPosition), 100);
    if (!('page' in read)) throw new Error('the feed is pruned');
    const fed = read.page.changes.map((c) => ({ ...c, position: encodeChangeCursor(c.position), companyId: 'acme-corp' }));
    expect(delivered.length).toBeGreaterThan(0);
    expect(delivered).toEqual(
      fed.map(({ position, kind, companyId, employeeId, personId, changedAt }) => ({ position, kind, companyId, employeeId, personId, changedAt })),
    );
  } finally {
    await drop();
  }
});
