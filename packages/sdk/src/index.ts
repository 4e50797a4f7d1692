export {
  BurnBox,
  NothingExtractedError,
  type AuthResult,
  type BurnBoxOptions,
  type BurnBoxPaths,
  type CreateInboxRequest,
  type Email,
  type EmailPage,
  type EmailSummary,
  type Inbox,
  type InboxPage,
  type WaitForLinkOptions,
} from "./client.js";
export { BurnBoxError, WaitTimeoutError, WebhookVerificationError, errorFromResponse } from "./errors.js";
export type {
  Authentication,
  Extracted,
  ExtractedCode,
  ExtractedLink,
  HtmlCheck,
  LinkCheck,
  LinkKind,
  WaitEmailSummary,
  WaitQueryWire,
  WaitResponse,
} from "./extensions.js";
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
