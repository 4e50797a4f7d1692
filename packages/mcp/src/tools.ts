// The MCP tools: each one an input schema (zod, checked by the MCP server before the handler runs)
// and a handler on the SDK. A failed call answers an MCP tool error (`isError: true`) carrying the
// API's message, never a thrown exception: an agent reads it and can correct its next call.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { BurnBoxError, NothingExtractedError, WaitTimeoutError, type BurnBox, type WaitOptions } from "@burnbox/sdk";
import { z } from "zod";
import { emailAsText } from "./text.js";

/** The longest wait a tool call may hold (the API's own cap). */
export const MAX_WAIT_SECONDS = 120;
const DEFAULT_WAIT_SECONDS = 30;

const id = (what: string) => z.string().uuid().describe(`The ${what} id (a UUID).`);

const matchers = {
  inbox_id: id("inbox"),
  from: z.string().min(1).max(320).optional().describe("Case-insensitive substring of the sender."),
  to: z.string().min(1).max(320).optional().describe("Case-insensitive substring of a To or Cc recipient."),
  subject: z.string().min(1).max(998).optional().describe("Case-insensitive substring of the subject."),
  body: z.string().min(1).max(1000).optional().describe("Case-insensitive substring of the body text."),
  subject_re: z.string().min(1).max(256).optional().describe("An RE2 regular expression the subject matches."),
  body_re: z.string().min(1).max(256).optional().describe("An RE2 regular expression the body matches."),
  headers: z
    .record(
      z
        .string()
        .min(1)
        .max(200)
        .regex(/^[^:\s]+$/, "a header name has no colon or space"),
      z.string().max(998),
    )
    .optional()
    .describe('Headers that must have exactly these values, e.g. {"X-Test-Run": "42"}.'),
  since: z.string().min(1).max(64).optional().describe("Only mail received after this ISO 8601 time or after this email id."),
  unread: z.boolean().optional().describe("Only unread mail."),
  timeout_seconds: z
    .number()
    .min(0)
    .max(MAX_WAIT_SECONDS)
    .optional()
    .describe(`How long to wait, in seconds: 0 to ${MAX_WAIT_SECONDS} (default ${DEFAULT_WAIT_SECONDS}).`),
};

/** The input schema of every tool, by tool name (zod raw shapes, as McpServer.registerTool takes them). */
export const TOOL_INPUTS = {
  create_inbox: {
    domain_assignment_id: id("domain assignment"),
    alias: z
      .string()
      .regex(/^[a-z0-9][a-z0-9._-]{0,62}[a-z0-9]$/i, "2-64 of a-z 0-9 . _ -, starting and ending with a letter or digit")
      .optional()
      .describe("The local part of the address; random when absent."),
    ttl: z
      .string()
      .max(32)
      .regex(/^(?:\d+(?:ms|d|h|m|s))+$/, "a duration such as 90s, 15m, 2h or 7d")
      .optional()
      .describe("How long the inbox lives, e.g. 15m, 2h, 7d (the team's default when absent)."),
  },
  list_inboxes: {
    page: z.number().int().min(1).optional(),
    per_page: z.number().int().min(1).max(100).optional(),
  },
  list_emails: {
    inbox_id: id("inbox"),
    page: z.number().int().min(1).optional(),
    per_page: z.number().int().min(1).max(100).optional(),
  },
  read_email: { email_id: id("email") },
  send_email: {
    inbox_id: id("inbox to send from"),
    to: z.array(z.string().email()).min(1).max(50).describe("Recipients: BurnBox inboxes, or the org's allowed recipients."),
    cc: z.array(z.string().email()).max(50).optional(),
    subject: z.string().max(998),
    text: z.string().optional().describe("The text part (give text, html or both)."),
    html: z.string().optional().describe("The HTML part."),
  },
  reply_to_email: {
    email_id: id("email to reply to"),
    text: z.string().optional().describe("The text part (give text, html or both)."),
    html: z.string().optional().describe("The HTML part."),
    reply_all: z.boolean().optional().describe("Also to the email's other To and Cc recipients."),
  },
  release_email: {
    email_id: id("email to release"),
    to: z.array(z.string().email()).min(1).max(50).describe("The new recipients."),
  },
  wait_for_email: {
    ...matchers,
    count: z.number().int().min(1).max(100).optional().describe("How many matching emails to wait for (default 1)."),
  },
  wait_for_code: matchers,
  wait_for_link: {
    ...matchers,
    kind: z
      .enum(["verify", "reset", "magic_link", "unsubscribe", "other"])
      .optional()
      .describe("The kind of link; absent: the first link that is not an unsubscribe link."),
  },
} as const;

type Input<K extends keyof typeof TOOL_INPUTS> = z.infer<z.ZodObject<(typeof TOOL_INPUTS)[K]>>;
type MatcherInput = Omit<z.infer<z.ZodObject<typeof matchers>>, "inbox_id">;

/** The SDK's wait options for a tool's matcher fields. */
export function waitOptions(input: MatcherInput & { count?: number }): WaitOptions {
  const o: WaitOptions = { timeout: Math.round((input.timeout_seconds ?? DEFAULT_WAIT_SECONDS) * 1000) };
  if (input.from !== undefined) o.from = input.from;
  if (input.to !== undefined) o.to = input.to;
  if (input.subject !== undefined) o.subject = input.subject;
  if (input.body !== undefined) o.body = input.body;
  if (input.subject_re !== undefined) o.subjectRe = input.subject_re;
  if (input.body_re !== undefined) o.bodyRe = input.body_re;
  if (input.headers !== undefined) o.headers = input.headers;
  if (input.since !== undefined) o.since = input.since;
  if (input.unread !== undefined) o.unread = input.unread;
  if (input.count !== undefined) o.count = input.count;
  return o;
}

const json = (value: unknown): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value, null, 2) }],
  structuredContent: value as Record<string, unknown>,
});
const text = (value: string): CallToolResult => ({ content: [{ type: "text", text: value }] });
const failure = (message: string): CallToolResult => ({ content: [{ type: "text", text: message }], isError: true });

/** A failed call as a tool error with the API's own message. */
export function toolError(err: unknown): CallToolResult {
  if (err instanceof BurnBoxError) return failure(`${err.message} (HTTP ${err.status}, ${err.code})`);
  if (err instanceof WaitTimeoutError) return failure(`no matching email arrived in time (${err.result.matched} matched)`);
  if (err instanceof NothingExtractedError) return failure(err.message);
  // fetch rejects with a TypeError carrying the network cause; the SDK's own TypeErrors are bad input
  if (err instanceof TypeError && err.cause === undefined) return failure(err.message);
  const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : "";
  return failure(`BurnBox could not be reached (${err instanceof Error ? err.message : String(err)}${cause})`);
}

const guarded =
  <A>(fn: (args: A) => Promise<CallToolResult>) =>
  async (args: A): Promise<CallToolResult> => {
    try {
      return await fn(args);
    } catch (err) {
      return toolError(err);
    }
  };

/** Registers every BurnBox tool on `server`, each calling BurnBox through `bb`. */
export function registerTools(server: McpServer, bb: BurnBox): void {
  const readOnly = { readOnlyHint: true, openWorldHint: true } as const;

  server.registerTool(
    "create_inbox",
    {
      title: "Create a disposable inbox",
      description:
        "Creates a disposable inbox on one of the team's domains and answers its id and full address. " +
        "Mail sent to the address can then be listed, read or waited for.",
      inputSchema: TOOL_INPUTS.create_inbox,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    guarded(async (a: Input<"create_inbox">) => {
      const inbox = await bb.createInbox({
        domain_assignment_id: a.domain_assignment_id,
        ...(a.alias !== undefined ? { alias: a.alias } : {}),
        ...(a.ttl !== undefined ? { ttl: a.ttl } : {}),
      });
      return json(inbox);
    }),
  );

  server.registerTool(
    "list_inboxes",
    {
      title: "List inboxes",
      description: "Lists the inboxes this key can see, newest first.",
      inputSchema: TOOL_INPUTS.list_inboxes,
      annotations: readOnly,
    },
    guarded(async (a: Input<"list_inboxes">) => json(await bb.listInboxes(a))),
  );

  server.registerTool(
    "list_emails",
    {
      title: "List an inbox's emails",
      description: "Lists the emails of an inbox (id, sender, subject, snippet, time), newest first. Use read_email for a whole email.",
      inputSchema: TOOL_INPUTS.list_emails,
      annotations: readOnly,
    },
    guarded(async (a: Input<"list_emails">) => {
      const { inbox_id, ...query } = a;
      return json(await bb.listEmails(inbox_id, query));
    }),
  );

  server.registerTool(
    "read_email",
    {
      title: "Read an email",
      description:
        "Reads one email as text: headers, the text body (or the HTML body's visible text), attachments' names, " +
        "and the one-time codes and links found in it when there are any.",
      inputSchema: TOOL_INPUTS.read_email,
      annotations: readOnly,
    },
    guarded(async (a: Input<"read_email">) => text(emailAsText(await bb.getEmail(a.email_id)))),
  );

  server.registerTool(
    "wait_for_email",
    {
      title: "Wait for an email",
      description:
        "Waits until `count` emails matching every given matcher are in the inbox (mail already there counts) or the " +
        `timeout passes (at most ${MAX_WAIT_SECONDS} s). Answers the matching emails and timed_out; a timeout is an answer, not an error.`,
      inputSchema: TOOL_INPUTS.wait_for_email,
      annotations: readOnly,
    },
    guarded(async (a: Input<"wait_for_email">) => {
      const { inbox_id, ...rest } = a;
      return json(await bb.wait(inbox_id, waitOptions(rest)));
    }),
  );

  server.registerTool(
    "wait_for_code",
    {
      title: "Wait for a one-time code",
      description: "Waits for the first email matching every given matcher and answers the one-time code found in it (e.g. 123456).",
      inputSchema: TOOL_INPUTS.wait_for_code,
      annotations: readOnly,
    },
    guarded(async (a: Input<"wait_for_code">) => {
      const { inbox_id, ...rest } = a;
      return text(await bb.waitForCode(inbox_id, waitOptions(rest)));
    }),
  );

  server.registerTool(
    "wait_for_link",
    {
      title: "Wait for a link",
      description:
        "Waits for the first email matching every given matcher and answers the URL of its first link of the given kind " +
        "(verify, reset, magic_link, unsubscribe, other).",
      inputSchema: TOOL_INPUTS.wait_for_link,
      annotations: readOnly,
    },
    guarded(async (a: Input<"wait_for_link">) => {
      const { inbox_id, kind, ...rest } = a;
      return text(await bb.waitForLink(inbox_id, { ...waitOptions(rest), ...(kind ? { kind } : {}) }));
    }),
  );

  // mail out (extensions section 10): each queues one message and answers its outbound id and Message-ID
  const sends = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true } as const;
  const queued = (q: { outbound_id: string; message_id: string }) => text(`queued ${q.outbound_id} ${q.message_id}`);
  const parts = (a: { text?: string | undefined; html?: string | undefined }) => ({
    ...(a.text !== undefined ? { text: a.text } : {}),
    ...(a.html !== undefined ? { html: a.html } : {}),
  });

  server.registerTool(
    "send_email",
    {
      title: "Send an email from an inbox",
      description: "Sends a new message from the inbox's address. Needs team.emails.send; the org's allowed recipients apply.",
      inputSchema: TOOL_INPUTS.send_email,
      annotations: sends,
    },
    guarded(async (a: Input<"send_email">) =>
      queued(await bb.sendEmail(a.inbox_id, { to: a.to, ...(a.cc ? { cc: a.cc } : {}), subject: a.subject, ...parts(a) })),
    ),
  );

  server.registerTool(
    "reply_to_email",
    {
      title: "Reply to an email",
      description: "Replies from the email's inbox to its Reply-To or From (reply_all: the other recipients too), threaded.",
      inputSchema: TOOL_INPUTS.reply_to_email,
      annotations: sends,
    },
    guarded(async (a: Input<"reply_to_email">) =>
      queued(await bb.replyToEmail(a.email_id, { ...parts(a), reply_all: a.reply_all === true })),
    ),
  );

  server.registerTool(
    "release_email",
    {
      title: "Release an email",
      description: "Sends a received email as it was (byte for byte, with Resent-* headers) to new recipients.",
      inputSchema: TOOL_INPUTS.release_email,
      annotations: sends,
    },
    guarded(async (a: Input<"release_email">) => queued(await bb.releaseEmail(a.email_id, a.to))),
  );
}
