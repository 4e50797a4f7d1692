import { pageWindow, toPage, type ListOutboundQuery, type OutboundMessage, type Page } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { InboxDeps } from "../deps";
import { visibleInbox } from "../inboxes/inbox-access";

/** GET /inboxes/:id/outbound: what the inbox sent, replied or released, newest first (extensions 10). */
export async function listOutbound(
  deps: InboxDeps,
  ctx: RequestCtx,
  input: { inboxId: string; page: ListOutboundQuery },
): Promise<Page<OutboundMessage>> {
  const scope = await visibleInbox(deps, ctx, input.inboxId, "team.emails.view");
  const { data, total } = await deps.data.repos.outbound.list(scope, input.inboxId, pageWindow(input.page));
  return toPage(data, total, input.page);
}
