import type { Page, PaginationQuery, SmtpAttempt } from "@burnbox/contracts";
import { paginate } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { InboxDeps } from "../deps";
import { visibleInbox } from "../inboxes/inbox-access";

/** The attempts the inbox's SMTP behaviour refused or deferred, newest first (extensions section 8). */
export async function listSmtpLog(
  deps: InboxDeps,
  ctx: RequestCtx,
  input: { inboxId: string; page: PaginationQuery },
): Promise<Page<SmtpAttempt>> {
  const scope = await visibleInbox(deps, ctx, input.inboxId, "team.emails.view");
  return paginate(input.page, {
    rows: (window) => deps.data.hot.smtpLog.list(scope, input.inboxId, window),
    count: () => deps.data.hot.smtpLog.count(scope, input.inboxId),
    map: (attempts) => attempts,
  });
}
