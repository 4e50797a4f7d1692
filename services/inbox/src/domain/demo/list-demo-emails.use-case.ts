import type { EmailSummary, Page, PaginationQuery } from "@burnbox/contracts";
import { paginate } from "@burnbox/service-kit/data";
import type { InboxDeps } from "../deps";
import { assertDemoEnabled, demoInbox } from "./demo-access";
import { PLATFORM_SCOPE } from "./demo-rules";

/** The emails of a demo inbox, newest first, to anyone who has its id; any other inbox id is a 404. */
export async function listDemoEmails(deps: InboxDeps, input: { inboxId: string; page: PaginationQuery }): Promise<Page<EmailSummary>> {
  assertDemoEnabled(deps);
  demoInbox(await deps.data.repos.inboxes.locate(input.inboxId));
  const listing = { inboxId: input.inboxId };
  return paginate(input.page, {
    rows: (window) => deps.data.repos.emails.list(PLATFORM_SCOPE, listing, window),
    count: () => deps.data.repos.emails.count(PLATFORM_SCOPE, listing),
    map: (emails) => emails,
  });
}
