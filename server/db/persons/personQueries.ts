// The domain's PersonQueries (server/domain/personQueries.ts) over SQL: app.ts hands one
// to the operations. Each method is the query of its own module, on this database.
import type { AuditInStatement } from '../../domain/accessAudit.js';
import type { LookupKey, PageAsk, PersonQueries, PersonsByKeyFilter } from '../../domain/personQueries.js';
import type { PersonFilter, PersonPage } from '../../domain/persons.js';
import type { Queryable } from '../engines/database.js';
import { findPersons, pageOf } from './persons.js';
import { findPersonsByKey } from './personsByKey.js';

export class SqlPersonQueries implements PersonQueries {
  constructor(private readonly db: Queryable) {}

  async findPage(filter: PersonFilter, audit?: AuditInStatement): Promise<PersonPage> {
    return pageOf(await findPersons(this.db, filter, audit));
  }

  findPagesByKey(filter: PersonsByKeyFilter, key: LookupKey, asks: readonly PageAsk[]) {
    return findPersonsByKey(this.db, filter, key, asks);
  }
}
