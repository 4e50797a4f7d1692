import type { GetInboxAccessReply } from "@burnbox/contracts";
import type { InboxDeps } from "../deps";

/** Who may watch an inbox, for realtime-gateway (system-driven: it decides access itself). */
export async function getInboxAccess(deps: InboxDeps, input: { inboxId: string }): Promise<GetInboxAccessReply> {
  return { inbox: await deps.data.repos.inboxes.locate(input.inboxId) };
}
