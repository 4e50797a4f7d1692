import type { Inbox } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { InboxDeps } from "../deps";
import { authorizeInbox } from "./inbox-access";

/**
 * One inbox with its mail counts, the hot path of the web app and of polling CI jobs: one
 * statement reads the inbox, its tenant and its counts; nothing of it is returned until the
 * caller is authorized on that tenant (a cached decision, see service-kit's authz).
 */
export async function getInbox(deps: InboxDeps, ctx: RequestCtx, input: { inboxId: string }): Promise<Inbox> {
  const found = await deps.data.hot.inboxes.locateWithCounts(input.inboxId);
  await authorizeInbox(deps, ctx, found?.access ?? null, "team.inboxes.view");
  return (found as NonNullable<typeof found>).inbox;
}
