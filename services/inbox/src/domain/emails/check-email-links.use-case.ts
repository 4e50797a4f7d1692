import { LINK_CHECK_LIMITS, type LinkCheck } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { InboxDeps } from "../deps";
import { authorizeInbox } from "../inboxes/inbox-access";
import { checkLinks } from "./checks/link-check";

/**
 * Extensions section 7: each of the first 100 links of the email's `extracted.links`, in that
 * order, fetched once under the outbound rules (`deps.links`). Read access suffices; 404 for an
 * email the caller may not see.
 */
export async function checkEmailLinks(deps: InboxDeps, ctx: RequestCtx, input: { emailId: string }): Promise<LinkCheck> {
  const located = await deps.data.repos.emails.locate(input.emailId);
  if (!located) throw errors.notFound("email");
  const scope = await authorizeInbox(deps, ctx, located.inbox, "team.emails.view", "email");
  const email = await deps.data.repos.emails.get(scope, input.emailId);
  if (!email) throw errors.notFound("email");
  const urls = email.extracted.links.slice(0, LINK_CHECK_LIMITS.links).map((l) => l.url);
  return { links: await checkLinks(deps.links, urls) };
}
