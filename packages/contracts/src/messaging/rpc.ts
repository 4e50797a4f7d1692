import { accountRpc } from "../identity/account.rpc";
import { apiKeysRpc } from "../identity/api-keys.rpc";
import { inviteMailRpc } from "../identity/invite-mail.rpc";
import { platformRpc } from "../identity/platform.rpc";
import { sessionsRpc } from "../identity/sessions.rpc";
import { setupRpc } from "../identity/setup.rpc";
import { demoRpc } from "../inbox/demo.rpc";
import { inboxesRpc } from "../inbox/inboxes.rpc";
import { accessRpc } from "../tenancy/access.rpc";
import { adminStatsRpc } from "../tenancy/admin-stats.rpc";
import { domainAssignmentsRpc } from "../tenancy/domain-assignments.rpc";
import { invitesRpc } from "../tenancy/invites.rpc";
import { membersRpc } from "../tenancy/members.rpc";
import { orgsRpc } from "../tenancy/orgs.rpc";
import { platformConfigRpc } from "../tenancy/platform-config.rpc";
import { teamsRpc } from "../tenancy/teams.rpc";
import { webhooksRpc } from "../webhook-dispatcher/webhooks.rpc";
import { renderRpc } from "../renderer/render.rpc";

/**
 * Every request/reply subject: each is declared once, with its request and reply schemas, in the
 * serving service's `<resource>.rpc.ts` beside its routes (`{ name, request, reply }`).
 */
const served = {
  ...accessRpc,
  ...domainAssignmentsRpc,
  ...teamsRpc,
  ...membersRpc,
  ...orgsRpc,
  ...invitesRpc,
  ...adminStatsRpc,
  ...platformConfigRpc,
  ...inboxesRpc,
  ...demoRpc,
  ...apiKeysRpc,
  ...sessionsRpc,
  ...accountRpc,
  ...inviteMailRpc,
  ...platformRpc,
  ...setupRpc,
  ...webhooksRpc,
  ...renderRpc,
} as const;
type Served = typeof served;

/** The subjects' names by key (`RpcName.authorize` is `"tenancy.authorize"`). */
export const RpcName = Object.fromEntries(Object.entries(served).map(([key, rpc]) => [key, rpc.name])) as {
  readonly [K in keyof Served]: Served[K]["name"];
};
export type RpcName = (typeof RpcName)[keyof typeof RpcName];

/** Request and reply schema of every request/reply subject, by name, so both ends check the same shapes. */
export const rpcSchemas = Object.fromEntries(
  Object.values(served).map((rpc) => [rpc.name, { request: rpc.request, reply: rpc.reply }]),
) as { readonly [K in keyof Served as Served[K]["name"]]: { readonly request: Served[K]["request"]; readonly reply: Served[K]["reply"] } };
export type RpcSchemas = typeof rpcSchemas;
