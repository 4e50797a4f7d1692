import { paginated } from "../pagination";
import { IdParams, errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import { ListSmtpLogQuery, SmtpAttempt, SmtpTranscript } from "./smtp-behaviour.schemas";

/** Extensions section 8: what the SMTP intake said, per stored email and per refused attempt. */
export const smtpBehaviourRoutes = defineRoutes({ service: "inbox", tag: "Inboxes" }, [
  {
    operationId: "getEmailTranscript",
    method: "get",
    path: "/emails/{id}/transcript",
    auth: "user",
    scope: "team.emails.view",
    tag: "Emails",
    summary: "The SMTP conversation that delivered an email",
    description: [
      "The lines client and server exchanged for this message, in order, each with its time: the session's start",
      "(greeting, EHLO, STARTTLS) and the message's transaction up to the final reply to DATA. The message itself",
      "(the DATA body) is left out, and AUTH credentials are replaced by a placeholder. Emails received before",
      "transcripts were kept answer 404.",
    ].join("\n"),
    request: { params: IdParams },
    responses: { 200: { description: "The transcript", schema: SmtpTranscript }, 404: errorResponses[404] },
    extensions: { "x-burnbox-extension": true },
  },
  {
    operationId: "listSmtpLog",
    method: "get",
    path: "/inboxes/{id}/smtp-log",
    auth: "user",
    // senders and Message-IDs are mail: reading them takes the mail's read permission
    scope: "team.emails.view",
    summary: "The attempts an inbox's SMTP behaviour refused or deferred, newest first",
    description: [
      "Every attempt the inbox's `smtp_behaviour` answered with a refusal (`reject_rcpt` at RCPT, `max_size_bytes`",
      "with 552) or a deferral (`defer_first`, 451), with the reply and the transcript up to it (without the message",
      "body). A transaction refused as a whole is listed for each recipient inbox that has a behaviour. The newest",
      "1,000 attempts of an inbox are kept; they go with the inbox.",
    ].join("\n"),
    request: { params: IdParams, query: ListSmtpLogQuery },
    responses: { 200: { description: "Attempts", schema: paginated(SmtpAttempt, "SmtpAttemptPage") }, 404: errorResponses[404] },
    extensions: { "x-burnbox-extension": true },
  },
] as const);
