import { pageWindow, toPage, type EmailSummary, type Page, type PaginationQuery } from "@burnbox/contracts";
import { paginate } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { InboxDeps } from "../deps";
import { visibleInbox } from "../inboxes/inbox-access";
import { parseEmailSearch } from "./email-search";

/**
 * The emails of an inbox, newest first; `q` is a search (email-search.ts), refused with a 400 naming
 * a term it cannot read. A searched page and its total are one statement (the matches found once);
 * an unsearched one reads its page and the inbox's kept count.
 */
export async function listEmails(
  deps: InboxDeps,
  ctx: RequestCtx,
  input: { inboxId: string; page: PaginationQuery & { q?: string | undefined } },
): Promise<Page<EmailSummary>> {
  const search = parseEmailSearch(input.page.q);
  const scope = await visibleInbox(deps, ctx, input.inboxId, "team.emails.view");
  if (search) {
    const { rows, total } = await deps.data.repos.emails.search(scope, input.inboxId, search, pageWindow(input.page));
    return toPage(rows, total, input.page);
  }
  const listing = { inboxId: input.inboxId };
  return paginate(input.page, {
    rows: (window) => deps.data.repos.emails.list(scope, listing, window),
    count: () => deps.data.repos.emails.count(scope, listing),
    map: (emails) => emails,
  });
}
