import { z } from "../zod";
import { PermissionSchema } from "../permissions";
import { Actor } from "../shared/actor.schemas";

export const AuthorizeRequest = z.object({
  actor: Actor,
  org_id: z.string().uuid(),
  team_id: z.string().uuid().nullable(),
  permission: PermissionSchema,
});
export type AuthorizeRequest = z.infer<typeof AuthorizeRequest>;
/**
 * The team's domain assignments on which the actor, though allowed, sees only the inboxes they
 * created (a `create_inbox` level, for a permission of `OWN_INBOX_PERMISSIONS`, unless the actor
 * is an org owner or admin or a system admin); absent when there are none. Another's inbox on
 * one of them is not there for the actor: it answers as an unknown one does.
 */
const OwnOnlyAssignments = z.array(z.string().uuid()).optional();
export const AuthorizeReply = z.object({
  allowed: z.boolean(),
  /** org_not_found | team_not_found | not_member | missing_permission | team_archived */
  reason: z.string().nullable(),
  own_only_assignments: OwnOnlyAssignments,
});
export type AuthorizeReply = z.infer<typeof AuthorizeReply>;
/** Teams (with their org) in which the actor holds `permission`; used to list across teams. */
export const ListActorTeamsRequest = z.object({ actor: Actor, permission: PermissionSchema });
export const ListActorTeamsReply = z.object({
  teams: z.array(z.object({ org_id: z.string().uuid(), team_id: z.string().uuid(), own_only_assignments: OwnOnlyAssignments })),
});
export type ListActorTeamsReply = z.infer<typeof ListActorTeamsReply>;
/**
 * The team permission keys an actor may put on a team's API key (`tenancy.team_scopes`): `known`
 * is every valid scope (built-in team keys and those custom team roles added), `held` those the
 * actor holds in that team (all of `known` for org owners and admins and system admins).
 */
export const TeamScopesRequest = z.object({ actor: Actor, org_id: z.string().uuid(), team_id: z.string().uuid() });
export const TeamScopesReply = z.object({ known: z.array(z.string()), held: z.array(z.string()) });
export type TeamScopesReply = z.infer<typeof TeamScopesReply>;

/** Tenancy answers every access decision: may the actor do this, in which teams, with which scopes. */
export const accessRpc = {
  authorize: { name: "tenancy.authorize", request: AuthorizeRequest, reply: AuthorizeReply },
  listActorTeams: { name: "tenancy.list_actor_teams", request: ListActorTeamsRequest, reply: ListActorTeamsReply },
  teamScopes: { name: "tenancy.team_scopes", request: TeamScopesRequest, reply: TeamScopesReply },
} as const;
