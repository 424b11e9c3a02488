// The demo's companies and development credentials, apart from the dataset generator so
// that a start on an already-loaded demo database does not load faker to print the tokens.
import { everyField, type FieldSet, fieldSetOf } from '../domain/fieldGroups.js';

export const demoCompanies = [
  { id: 'acme-corp', name: 'Acme Corporation', weight: 40 },
  { id: 'globex', name: 'Globex', weight: 25 },
  { id: 'initech', name: 'Initech', weight: 15 },
  { id: 'umbrella', name: 'Umbrella Health', weight: 10 },
  { id: 'hooli', name: 'Hooli', weight: 7 },
  { id: 'stark_industries', name: 'Stark Industries', weight: 3 },
];

export interface DemoCredential {
  name: string;
  token: string;
  companies: string[];
  fields: FieldSet;
  purpose: string;
}

const everyCompany = demoCompanies.map((c) => c.id);

/**
 * Development credentials: plaintext tokens, hashed on import. Never used outside
 * development. The first three read every field group (the README, the docs and the tests
 * use them); the last two show what a narrow credential gets: a scheduling tool that needs
 * names and emails, a benefits tool that needs neither a date of birth nor a home address.
 */
export const demoCredentials: DemoCredential[] = [
  {
    name: 'demo: every company',
    token: 'plk_demo_every_company_6f1d0c9e2b',
    companies: everyCompany,
    fields: everyField,
    purpose: 'development demo: every field of every company',
  },
  {
    name: 'demo: acme-corp only',
    token: 'plk_demo_acme_only_3a7b55e1c4d8',
    companies: ['acme-corp'],
    fields: everyField,
    purpose: 'development demo: one company',
  },
  {
    name: 'demo: globex and initech',
    token: 'plk_demo_globex_initech_90c2fa',
    companies: ['globex', 'initech'],
    fields: everyField,
    purpose: 'development demo: two companies',
  },
  {
    name: 'demo: scheduling tool',
    token: 'plk_demo_scheduling_name_email_41c7e2',
    companies: everyCompany,
    fields: fieldSetOf(['name', 'email']),
    purpose: 'shift scheduling: invites each employee to their shifts by name and email',
  },
  {
    name: 'demo: benefits tool',
    token: 'plk_demo_benefits_no_dob_address_8e3d5a',
    companies: everyCompany,
    fields: everyField.filter((group) => group !== 'dateOfBirth' && group !== 'address'),
    purpose: 'benefits administration: enrolment, participation and coverage of each employment',
  },
];
