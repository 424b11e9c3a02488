// Preloaded into Prism's process (`node --require`) by mock/prism.ts.
// In dynamic mode Prism reseeds json-schema-faker's random for every response (`--seed`), but
// not faker, which fills the contract's `x-faker` values (names, emails, dates). Without this,
// the same seed would give other names on every start. Here faker is reseeded from the same
// seed whenever Prism generates a response, so one request gives one body, start after start.
const { createRequire } = require('node:module');

const prismCli = require.resolve('@stoplight/prism-cli/package.json');
const fromPrismHttp = createRequire(createRequire(prismCli).resolve('@stoplight/prism-http'));
const { faker } = fromPrismHttp('@faker-js/faker');
const generator = fromPrismHttp('./mocker/generator/JSONSchema');

/** A 32-bit FNV-1a hash: faker takes a number, Prism's --seed is any string. */
function seedNumber(seed) {
  let hash = 0x811c9dc5;
  for (const char of String(seed)) hash = Math.imul(hash ^ char.codePointAt(0), 0x01000193) >>> 0;
  return hash;
}

const generate = generator.generate;
if (typeof generate !== 'function' || typeof faker?.seed !== 'function') {
  throw new Error('mock/seeded-faker.cjs: Prism internals changed (generate or faker.seed not found); update it with @stoplight/prism-cli');
}
generator.generate = function seededGenerate(_resource, _bundle, _source, seed) {
  if (seed) faker.seed(seedNumber(seed));
  return generate.apply(this, arguments);
};
