import type { Inbox } from "@burnbox/contracts";
import { errors, type RequestCtx } from "@burnbox/service-kit";
import type { InboxDeps } from "../deps";
import { visibleInbox } from "./inbox-access";

/** One inbox with its mail counts: locate, authorize, then one scoped read (the hot path of the web app). */
export async function getInbox(deps: InboxDeps, ctx: RequestCtx, input: { inboxId: string }): Promise<Inbox> {
  const scope = await visibleInbox(deps, ctx, input.inboxId, "team.inboxes.view");
  const inbox = await deps.data.repos.inboxes.get(scope, input.inboxId);
  if (!inbox) throw errors.notFound("inbox");
  return inbox;
}
