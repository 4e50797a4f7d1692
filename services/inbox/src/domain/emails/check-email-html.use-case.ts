import { simpleParser } from "mailparser";
import type { HtmlCheck } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { InboxDeps } from "../deps";
import { authorizeInbox } from "../inboxes/inbox-access";
import { judgeHtml } from "./checks/html-compat";

/**
 * Extensions section 7: the HTML part as it was sent (read from the stored raw message, not the
 * sanitized copy the API shows, which has lost its styles) judged against the caniemail data.
 * 404 for an email the caller may not see, and for one without an HTML part.
 */
export async function checkEmailHtml(deps: InboxDeps, ctx: RequestCtx, input: { emailId: string }): Promise<HtmlCheck> {
  const located = await deps.data.repos.emails.locate(input.emailId);
  if (!located) throw errors.notFound("email");
  const scope = await authorizeInbox(deps, ctx, located.inbox, "team.emails.view", "email");
  const file = await deps.data.repos.emails.rawMessage(scope, input.emailId);
  if (!file) throw errors.notFound("email");
  const mail = await simpleParser(await deps.storage.get(file.key), { skipImageLinks: true, skipTextToHtml: true, skipHtmlToText: true });
  const html = typeof mail.html === "string" ? mail.html : "";
  if (!html.trim()) throw errors.notFound("HTML part");
  return judgeHtml(html);
}
