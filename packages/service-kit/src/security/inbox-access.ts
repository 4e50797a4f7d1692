import type { NatsConnection } from "@nats-io/nats-core";
import type { Actor, AuthorizeReply, GetInboxAccessReply, Permission } from "@burnbox/contracts";
import { errors } from "../core/errors";
import { authorize } from "./authz";

/** What deciding on one inbox needs: its tenant, domain assignment, creator and visibility. */
export type InboxAccessFacts = Pick<
  NonNullable<GetInboxAccessReply["inbox"]>,
  "org_id" | "team_id" | "domain_assignment_id" | "created_by" | "private"
>;

/**
 * Whether the actor, allowed on the inbox's team by `decision`, sees this inbox: not when it is
 * someone else's private inbox, nor when it is someone else's on an assignment the decision
 * narrows to the actor's own inboxes (`create_inbox`: "create; read own", contract notes).
 */
export function seesInbox(actor: Actor, decision: AuthorizeReply, inbox: InboxAccessFacts): boolean {
  if (inbox.created_by === actor.user_id) return true;
  if (inbox.private) return false;
  return !(decision.own_only_assignments ?? []).includes(inbox.domain_assignment_id);
}

/**
 * The one access check on an inbox and its mail, for every service that serves them: tenancy's
 * decision on the inbox's team (404 outside it, 403 without `permission`), then `seesInbox`; an
 * inbox the actor does not see is a 404 naming `what`, exactly as an unknown one.
 */
export async function authorizeInbox(
  nc: NatsConnection,
  namespace: string,
  req: { actor: Actor; inbox: InboxAccessFacts; permission: Permission },
  what = "inbox",
): Promise<void> {
  const { actor, inbox, permission } = req;
  const decision = await authorize(nc, namespace, { actor, org_id: inbox.org_id, team_id: inbox.team_id, permission }, what);
  if (!seesInbox(actor, decision, inbox)) throw errors.notFound(what);
}
