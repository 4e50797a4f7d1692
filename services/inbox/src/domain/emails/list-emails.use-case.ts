import type { EmailSummary, Page, PaginationQuery } from "@burnbox/contracts";
import { paginate } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { InboxDeps } from "../deps";
import { visibleInbox } from "../inboxes/inbox-access";

/** The emails of an inbox, newest first; `q` searches subject, sender and text. */
export async function listEmails(
  deps: InboxDeps,
  ctx: RequestCtx,
  input: { inboxId: string; page: PaginationQuery & { q?: string | undefined } },
): Promise<Page<EmailSummary>> {
  const scope = await visibleInbox(deps, ctx, input.inboxId, "team.emails.view");
  const listing = { inboxId: input.inboxId, search: input.page.q?.trim() };
  return paginate(input.page, {
    rows: (window) => deps.data.repos.emails.list(scope, listing, window),
    count: () => deps.data.repos.emails.count(scope, listing),
    map: (emails) => emails,
  });
}
