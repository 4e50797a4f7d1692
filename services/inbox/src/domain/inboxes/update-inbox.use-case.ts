import { normalizedSmtpBehaviour, type Inbox, type UpdateInboxBody } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { InboxDeps } from "../deps";
import { visibleInbox } from "./inbox-access";

/**
 * Changes an inbox's SMTP behaviour (extensions section 8): the given one replaces the whole
 * behaviour, null (or every field null) makes it normal again, absent changes nothing. The
 * repository records the change, so every intake replica's recipient cache drops the inbox before
 * this answers: a transaction that starts after it meets the new behaviour.
 */
export async function updateInbox(deps: InboxDeps, ctx: RequestCtx, input: { inboxId: string; body: UpdateInboxBody }): Promise<Inbox> {
  const scope = await visibleInbox(deps, ctx, input.inboxId, "team.inboxes.manage");
  if (input.body.smtp_behaviour === undefined) {
    const inbox = await deps.data.repos.inboxes.get(scope, input.inboxId);
    if (!inbox) throw errors.notFound("inbox");
    return inbox;
  }
  const behaviour = normalizedSmtpBehaviour(input.body.smtp_behaviour);
  return deps.data.write(async (repos, events) => {
    const inbox = await repos.inboxes.setSmtpBehaviour(scope, input.inboxId, behaviour);
    if (!inbox) throw errors.notFound("inbox");
    events.audit({
      ctx,
      action: "inbox.updated",
      org_id: scope.orgId,
      team_id: scope.teamId,
      target: { type: "inbox", id: inbox.id, name: inbox.full_address },
      metadata: { smtp_behaviour: behaviour },
    });
    return inbox;
  });
}
