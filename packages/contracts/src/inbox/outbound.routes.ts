import { RateLimitBody } from "../errors";
import { paginated } from "../pagination";
import { IdParams, errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import { ListOutboundQuery, OutboundMessage, OutboundQueued, ReleaseEmailBody, ReplyEmailBody, SendEmailBody } from "./outbound.schemas";

/** Extensions section 10: how many messages a team may queue per hour unless `outbound.max_per_hour` says otherwise. */
export const OUTBOUND_MAX_PER_HOUR_DEFAULT = 100;

const RULES = [
  "Whom it may reach is the org's: a recipient that is an inbox of this BurnBox is always allowed (delivered through",
  "BurnBox's own SMTP intake); any other must match `outbound.allowed_recipients` of the org settings (an address,",
  "`@domain` or `*.domain`), else 403 `recipient not allowed: <address>` and nothing is sent. The inbox's domain must be",
  "verified (or trusted), else 409 `domain is not verified`. Each message counts against the team's",
  "`outbound.max_per_hour` (429 beyond) and writes an audit entry. The answer is 202 as soon as the message is queued;",
  "it is delivered through the platform mailer, DKIM-signed with the domain's key, retried on a 4xx or a connection",
  "failure and ended as `failed` on a 5xx; `GET /inboxes/{id}/outbound` shows how it went.",
].join("\n");

const queuedResponses = {
  202: { description: "Queued", schema: OutboundQueued },
  400: errorResponses[400],
  403: { description: "Insufficient permissions, or a recipient not allowed" },
  404: errorResponses[404],
  409: { description: "The inbox's domain is not verified" },
  429: { description: "The team's hourly outbound limit is reached", schema: RateLimitBody },
} as const;

export const outboundRoutes = defineRoutes({ service: "inbox", tag: "Emails" }, [
  {
    operationId: "releaseEmail",
    method: "post",
    path: "/emails/{id}/release",
    auth: "user",
    scope: "team.emails.send",
    summary: "Send a received message as it was to new recipients",
    description: [
      "The stored message, byte for byte (headers and body), with `Resent-From` (the inbox's address), `Resent-To`,",
      "`Resent-Date` and `Resent-Message-ID` added on top.",
      "",
      RULES,
    ].join("\n"),
    request: { params: IdParams, body: ReleaseEmailBody },
    responses: queuedResponses,
    extensions: { "x-burnbox-extension": true },
  },
  {
    operationId: "replyToEmail",
    method: "post",
    path: "/emails/{id}/reply",
    auth: "user",
    scope: "team.emails.send",
    summary: "Reply to a received message from its inbox's address",
    description: [
      "To the message's `Reply-To`, else its `From`; with `reply_all`, also to its other `To` and `Cc` recipients but the",
      "inbox itself. The subject is `Re: ` and the original subject (not doubled), `In-Reply-To` is the original's",
      "`Message-ID` and `References` its `References` (else `In-Reply-To`) followed by that `Message-ID`. At least one of",
      "`text` and `html`; attachments 10 MiB in all.",
      "",
      RULES,
    ].join("\n"),
    request: { params: IdParams, body: ReplyEmailBody },
    responses: queuedResponses,
    extensions: { "x-burnbox-extension": true },
  },
  {
    operationId: "sendFromInbox",
    method: "post",
    path: "/inboxes/{id}/send",
    auth: "user",
    scope: "team.emails.send",
    tag: "Inboxes",
    summary: "Send a new message from the inbox's address",
    description: [
      "At least one of `text` and `html`; attachments 10 MiB in all; `headers` adds headers of your own (not the ones",
      "BurnBox writes: From, To, Cc, Subject, Date, Message-ID, the MIME ones and DKIM-Signature).",
      "",
      RULES,
    ].join("\n"),
    request: { params: IdParams, body: SendEmailBody },
    responses: queuedResponses,
    extensions: { "x-burnbox-extension": true },
  },
  {
    operationId: "listOutbound",
    method: "get",
    path: "/inboxes/{id}/outbound",
    auth: "user",
    scope: "team.emails.view",
    tag: "Inboxes",
    summary: "What an inbox sent, replied or released, newest first",
    request: { params: IdParams, query: ListOutboundQuery },
    responses: {
      200: { description: "Outgoing messages", schema: paginated(OutboundMessage, "OutboundMessagePage") },
      404: errorResponses[404],
    },
    extensions: { "x-burnbox-extension": true },
  },
] as const);
