// Dataset entities as import records: the generator's own (server/dataset/toRecords.ts).
export { employmentRecords, personRecords } from '../../server/dataset/toRecords.js';
