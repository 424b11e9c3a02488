// The field groups a credential may be granted, as a type and as values. A response names
// the groups it withheld (`withheld`); their keys are absent from every Employee in it (an
// absent key is withheld, a null value recorded as empty). The compiler holds the list equal
// to the contract's enum (values.ts).
import type { components } from '../../generated/types.full.js';
import { valuesOf } from './values.js';

export type FieldGroup = components['schemas']['FieldGroup'];
/** The groups a response withheld from this credential; absent when it reads every group. */
export type WithheldFields = components['schemas']['WithheldFields'];

export const fieldGroups = valuesOf<FieldGroup>()([
  'name',
  'dateOfBirth',
  'gender',
  'email',
  'phone',
  'address',
  'externalIds',
  'membership',
  'participation',
  'coverage',
]);
