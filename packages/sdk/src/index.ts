export {
  BurnBox,
  NothingExtractedError,
  type ApiKeyWithRawKey,
  type AuthResult,
  type BurnBoxOptions,
  type BurnBoxPaths,
  type CreateInboxRequest,
  type CreateOrgRequest,
  type CreateTeamRequest,
  type Domain,
  type DomainAssignment,
  type DomainAssignmentPage,
  type DomainPage,
  type Email,
  type EmailPage,
  type EmailSummary,
  type Inbox,
  type InboxPage,
  type MyDomainPage,
  type Org,
  type OrgPage,
  type OrgWithRole,
  type RegisterRequest,
  type Team,
  type TeamPage,
  type WaitForLinkOptions,
} from "./client.js";
export { BurnBoxError, WaitTimeoutError, WebhookVerificationError, errorFromResponse } from "./errors.js";
export type { Extracted, ExtractedCode, ExtractedLink, LinkKind, WaitEmailSummary, WaitQueryWire, WaitResponse } from "./extensions.js";
export { buildWaitQuery, formatTimeout, type EmailMatchers, type WaitOptions } from "./wait-query.js";
export {
  InboxStream,
  resolveWebSocket,
  type EmailReceivedData,
  type InboxFrame,
  type WebSocketConstructor,
  type WebSocketLike,
} from "./stream.js";
export {
  verifyWebhook,
  DELIVERY_ID_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  type HeaderBag,
  type VerifyWebhookOptions,
  type WebhookDelivery,
} from "./webhook.js";
export type { components, paths } from "./generated/openapi.js";
