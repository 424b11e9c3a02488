// @lookup/client/drafts: the explicit opt-in to the full contract, draft operations
// included, for teams that test drafts in development. Drafts are unavailable in sandbox
// and production (they answer 404 draft_unavailable there): point it at a development server or the mock.
import type { components, operations, paths } from '../../generated/types.full.js';
import { type ClientOptions, createConfiguredClient } from './create-client.js';
import { draftCodes } from './draft-codes.js';
import type { ErrorOf, TypedClient } from './typed-client.js';

export type LookupDraftsClient = TypedClient<paths>;
export type LookupDraftsClientOptions = ClientOptions;

/** The searches take their filters in a POST body but only read: safe to send again after a network error. */
const searchPaths = ['/v1/persons/search', '/v1/employees/search'] as const;

/** A client for the whole contract, drafts included. Point it at a development server or the mock. */
export function createLookupDraftsClient(options: LookupDraftsClientOptions): LookupDraftsClient {
  return createConfiguredClient<paths>(options, { codes: draftCodes, readPosts: searchPaths });
}

type Schemas = components['schemas'];
export type Person = Schemas['Person'];
export type Employee = Schemas['Employee'];
export type ExternalId = Schemas['ExternalId'];
export type Demographics = Schemas['Demographics'];
export type Contact = Schemas['Contact'];
export type Address = Schemas['Address'];
export type Membership = Schemas['Membership'];
export type Invitation = Schemas['Invitation'];
export type Participation = Schemas['Participation'];
export type Coverage = Schemas['Coverage'];
export type Pagination = Schemas['Pagination'];
/** `pagination.next`, sent back as `cursor`: opaque. */
export type PageCursor = Schemas['PageCursor'];
export type SearchPersonsRequest = Schemas['SearchPersonsRequest'];
export type SearchPersonsResponse = Schemas['SearchPersonsResponse'];
export type GetPersonResponse = Schemas['GetPersonResponse'];
export type SearchEmployeesRequest = Schemas['SearchEmployeesRequest'];
export type SearchEmployeesResponse = Schemas['SearchEmployeesResponse'];
export type HelloResponse = Schemas['HelloResponse'];
export type ChangeKind = Schemas['ChangeKind'];
/** A change's `position` and a page's `next`, sent back as `after`: opaque. */
export type ChangeCursor = Schemas['ChangeCursor'];
export type SearchPersonsError = ErrorOf<operations['searchPersons']>;
export type GetPersonError = ErrorOf<operations['getPerson']>;
export type SearchEmployeesError = ErrorOf<operations['searchEmployees']>;
export type HelloError = ErrorOf<operations['hello']>;
export type ListChangesError = ErrorOf<operations['listChanges']>;

export { type Change, type ChangesResponse, changesPage, type FollowOptions, followChanges } from './changes.js';
export { type ErrorCode, errorCodes } from './draft-codes.js';
export { type FieldGroup, fieldGroups, type WithheldFields } from './field-groups.js';
export {
  type BaseUrl,
  type DataOf,
  type ErrorBody,
  type ErrorOf,
  type Fetch,
  LookupApiError,
  type ResultOf,
  type RetryOptions,
  type ServiceCodeOf,
  type TokenSource,
  type UnexpectedCode,
  type UnexpectedResponse,
  unwrap,
} from './index.js';
export { type PageFilters, paginate, type RowOf, type SearchPath } from './paginate.js';
export {
  type CoverageStatus,
  coverageStatuses,
  type InvitationStatus,
  invitationStatuses,
  type MembershipStatus,
  membershipStatuses,
  type ParticipationDecision,
  participationDecisions,
} from './states.js';
export {
  type VerifiedWebhook,
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookChange,
  type WebhookHeaders,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from './webhooks.js';
export type { components, operations, paths };
