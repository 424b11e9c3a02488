// Preloaded into Prism's process (`node --require`) by mock/prism.ts, beside seeded-faker.cjs.
// In dynamic mode json-schema-faker fills each field on its own. The contract already says
// what each looks like: every list holds at least one item (its root `x-json-schema-faker`
// min-items, so a search answers one to five people, each with employments) and a page size
// is a usual one (Pagination.limit's x-faker). What ties two fields together cannot be a
// hint on either, so it is done here, to every generated body:
//   - a page (`pagination` beside its list, as Search persons and Search employees answer):
//     `limit` is at least the page's length, `offset` a whole number of pages, and `total`
//     counts the pages before and this one. A page shorter than `limit` is the last (`total`
//     = `offset` + its length, `next` null); a full one is the last where `next` came out
//     null, and is followed by at least one more result where it holds a cursor;
//   - a person's employments carry the person's id, and Search employees' records none;
//   - nothing is withheld: every field is generated, so `withheld` is left out, as for a
//     credential that reads every field group.
// Bodies the contract's examples give (static mode, `Prefer: example=...`) are not touched.
const { createRequire } = require('node:module');

const prismCli = require.resolve('@stoplight/prism-cli/package.json');
const generator = createRequire(createRequire(prismCli).resolve('@stoplight/prism-http'))('./mocker/generator/JSONSchema');

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The page's list (`persons`, `employees`), or undefined where the value is no page. */
function listOf(body) {
  if (!isObject(body) || !isObject(body.pagination)) return undefined;
  return ['persons', 'employees'].map((key) => body[key]).find(Array.isArray);
}

function coherentPage(body) {
  const list = listOf(body);
  if (!list) return;
  const page = body.pagination;
  page.limit = Math.max(page.limit, list.length, 1);
  page.offset = Math.floor(Math.max(page.offset, 0) / page.limit) * page.limit;
  const last = list.length < page.limit || typeof page.next !== 'string';
  page.total = last ? page.offset + list.length : Math.max(page.total, page.offset + list.length + 1);
  if (last && 'next' in page) page.next = null;
}

function linkEmployments(person) {
  if (isObject(person) && typeof person.id === 'string' && Array.isArray(person.employments))
    for (const employment of person.employments) if (isObject(employment)) employment.personId = person.id;
}

/** Makes a generated body agree with itself, in place. */
function coherent(body) {
  if (!isObject(body)) return;
  delete body.withheld;
  coherentPage(body);
  if (Array.isArray(body.persons)) body.persons.forEach(linkEmployments);
  linkEmployments(body.person);
  if (Array.isArray(body.employees)) for (const employee of body.employees) if (isObject(employee)) employee.personId = null;
}

const generate = generator.generate;
if (typeof generate !== 'function') {
  throw new Error('mock/coherent-bodies.cjs: Prism internals changed (generate not found); update it with @stoplight/prism-cli');
}
generator.generate = function coherentGenerate() {
  const result = generate.apply(this, arguments);
  // An fp-ts Either: the generated value is `right` when generation succeeded.
  if (result && result._tag === 'Right') coherent(result.right);
  return result;
};

module.exports = { coherent };
