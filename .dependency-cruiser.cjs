// The server's import rules, checked by `npm run lint` (dependency-cruiser). The layers and
// why the arrows point as they do: docs/contributing/layout.md.
//
//   http -> operations -> domain <- db
//
// The domain owns its types and the interfaces (ports) db implements; app.ts and cli/
// (the composition roots) hand the concrete db objects to the operations. Type-only imports
// count: a type is an arrow too.

/** Any module of the server but those matching `allowed` (a regular expression on the path). */
const serverExcept = (allowed) => ({ path: '^server/', pathNot: allowed });

/**
 * The server's public modules: what bench/, scripts/ and support/ may import. The
 * configuration, the domain (its rules and types), the contract as the server reads it,
 * the demo data and the one dataset generator (the demo's, the bench's and the tests'),
 * the import's entry points (index.ts, records.ts, and storedRows.ts for the bench's
 * floors), tracing's opening (the bench's span floor), and of db/ the engines' interface
 * and opening, migrations, the stores, the person and employee queries (the bench's
 * direct-SQL reference), the change feed's page read (the bench times it), and the replicas' router. Everything else (db/import/,
 * db/derived/, importing/'s steps, http/ but the Redoc files, the composition roots) is
 * the server's own: reached through these, or not at all.
 */
const SERVER_PUBLIC = [
  'config\\.ts$',
  'domain/',
  'demo/',
  'dataset/',
  '(contract|contractFiles|servedContract)\\.ts$',
  'importing/(index|records|storedRows)\\.ts$',
  // The import's checks in its worker threads, run alone: the bench's bound on the whole-file loads (bench/imports/checksAlone.ts).
  'importing/workers\\.ts$',
  // How a worker thread starts, under tsx or built: the bench's load generator starts its own so (bench/imports/loadGenerator.ts).
  'importing/workerEntry\\.ts$',
  // How an initial load builds its indexes after its rows: the whole-file loads' floor does as it does (bench/imports/loadedRowsAlone.ts).
  'db/import/deferredIndexes\\.ts$',
  'db/engines/(database|openDatabase)\\.ts$',
  'db/schema/(migrate|structure)\\.ts$',
  'db/stores/',
  // The read path's queries: the bench's direct-SQL reference.
  'db/reads/queries\\.ts$',
  // The change feed's page read: the bench times it (bench/imports/feed.ts).
  'db/feed/read\\.ts$',
  'db/replicas/readRouting\\.ts$',
  // The responses the bench's bare-handler floor sends, as the service shapes them.
  'operations/responses\\.ts$',
  'http/(docs|redoc-logo)\\.ts$',
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle has no layer order: one of its modules belongs in another place, or its shared part in a module of its own.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-stands-alone',
      severity: 'error',
      comment:
        'The domain (what a search means, its rules and types, the ports db implements) imports only the domain and the error registry: never db, http or operations.',
      from: { path: '^server/domain/' },
      to: serverExcept('^server/(domain/|errors\\.ts$)'),
    },
    {
      name: 'domain-not-to-network',
      severity: 'error',
      comment: 'The domain never sees a request or a connection.',
      from: { path: '^server/domain/' },
      to: { dependencyTypes: ['core'], path: '^(node:)?(http|https|http2|net|tls|dgram)$' },
    },
    {
      name: 'operations-only-to-domain',
      severity: 'error',
      comment: 'Operations ask the domain and its ports (wired by app.ts); they never import db or http.',
      from: { path: '^server/operations/' },
      to: serverExcept('^server/(operations/|domain/|errors\\.ts$)'),
    },
    {
      name: 'db-only-to-domain',
      severity: 'error',
      comment: "The data layer implements the domain's ports with SQL; it never reaches up to http, operations or the jobs that use it.",
      from: { path: '^server/db/' },
      to: serverExcept('^server/(db/|domain/)'),
    },
    {
      name: 'dataset-only-to-records',
      severity: 'error',
      comment:
        'The dataset generator makes import records and nothing else: the demo, the bench and the tests load them through the import; it needs no database, request or job.',
      from: { path: '^server/dataset/' },
      to: serverExcept('^server/(dataset/|importing/records\\.ts$)'),
    },
    {
      name: 'http-not-to-db',
      severity: 'error',
      comment: "HTTP reaches data through operations and the domain's ports, never db/ itself.",
      from: { path: '^server/http/' },
      to: { path: '^server/db/' },
    },
    {
      name: 'config-not-to-http',
      severity: 'error',
      comment: 'Configuration is read before anything is built: it imports no other part of the server (http/ may import config).',
      from: { path: '^server/config\\.ts$' },
      to: { path: '^server/' },
    },
    {
      name: 'jobs-not-to-http-or-operations',
      severity: 'error',
      comment: 'The import, erasure, access-audit, feed and webhook jobs use the domain and db; they are not HTTP.',
      from: { path: '^server/(importing|privacy|access|feed|webhooks)/' },
      to: { path: '^server/(http|operations|cli)/' },
    },
    {
      name: 'composition-roots-not-imported',
      severity: 'error',
      comment: 'app.ts, main.ts and cli/ wire the parts together; no part imports them (main.ts starts app.ts, cli/ shares its helpers).',
      from: { path: '^server/', pathNot: '^server/(main\\.ts$|cli/)' },
      to: { path: '^server/(app\\.ts|main\\.ts|cli/)' },
    },
    {
      name: 'server-not-to-outside',
      severity: 'error',
      comment: "The server ships alone: it may read generated/ (the contract's types), never tests, bench, scripts, client or mock.",
      from: { path: '^server/' },
      to: { path: '^(tests|bench|scripts|client|mock|tools)/' },
    },
    {
      name: 'server-not-to-dev-dependencies',
      severity: 'error',
      comment: 'A production install has no devDependencies: the server may not import one (types excepted).',
      from: { path: '^server/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'outside-uses-server-public-modules',
      severity: 'error',
      comment: "The bench, the scripts and the shared support code use the server's public modules (SERVER_PUBLIC above), never its internals.",
      from: { path: '^(bench|scripts|support)/' },
      to: serverExcept(`^server/(${SERVER_PUBLIC.join('|')})`),
    },
    {
      name: 'client-ships-alone',
      severity: 'error',
      comment: "The client is a package of its own: it imports the contract's generated types, never the server, tests, bench or scripts.",
      from: { path: '^client/' },
      to: { path: '^(server|tests|bench|scripts|support|mock|tools)/' },
    },
    {
      name: 'bench-runs-not-to-reports',
      severity: 'error',
      comment: 'A run measures and a report reads what it measured: a run never imports a report (a report may read the types of what a run returns).',
      from: { path: '^bench/[a-z/]*run\\.ts$' },
      to: { path: '^bench/[a-z/]*report\\.ts$' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to nothing fails at run time.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // generated/ is the contract's, read by type; it is not cruised itself.
    exclude: { path: '^generated/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
