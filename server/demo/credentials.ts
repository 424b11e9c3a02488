// The demo's companies and development credentials, apart from the dataset generator so
// that a start on an already-loaded demo database does not load faker to print the tokens.
export const demoCompanies = [
  { id: 'acme-corp', name: 'Acme Corporation', weight: 40 },
  { id: 'globex', name: 'Globex', weight: 25 },
  { id: 'initech', name: 'Initech', weight: 15 },
  { id: 'umbrella', name: 'Umbrella Health', weight: 10 },
  { id: 'hooli', name: 'Hooli', weight: 7 },
  { id: 'stark_industries', name: 'Stark Industries', weight: 3 },
];

/** Development credentials: plaintext tokens, hashed on import. Never used outside development. */
export const demoCredentials = [
  { name: 'demo: every company', token: 'plk_demo_every_company_6f1d0c9e2b', companies: demoCompanies.map((c) => c.id) },
  { name: 'demo: acme-corp only', token: 'plk_demo_acme_only_3a7b55e1c4d8', companies: ['acme-corp'] },
  { name: 'demo: globex and initech', token: 'plk_demo_globex_initech_90c2fa', companies: ['globex', 'initech'] },
];
