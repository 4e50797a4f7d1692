import type { invitesRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit/http";
import type { TenancyDeps } from "../domain/deps";
import { acceptInvite } from "../domain/invites/accept-invite.use-case";
import { bulkCreateInvites } from "../domain/invites/bulk-create-invites.use-case";
import { createInvite } from "../domain/invites/create-invite.use-case";
import { listInvites } from "../domain/invites/list-invites.use-case";
import { previewInvite } from "../domain/invites/preview-invite.use-case";
import { revokeInvite } from "../domain/invites/revoke-invite.use-case";

export const invitesHandlers = (deps: TenancyDeps): Handlers<typeof invitesRoutes> => ({
  createInvite: ({ ctx, params, body }) => createInvite(deps, ctx, { ...params, ...body }),
  inviteMember: ({ ctx, params, body }) => createInvite(deps, ctx, { ...params, ...body }),
  bulkCreateInvites: ({ ctx, params, body }) => bulkCreateInvites(deps, ctx, { ...params, ...body }),
  listInvites: ({ ctx, params, query }) => listInvites(deps, ctx, { ...params, ...query }),
  revokeInvite: ({ ctx, params }) => revokeInvite(deps, ctx, params),
  previewInvite: ({ params }) => previewInvite(deps, params),
  acceptInvite: ({ ctx, params }) => acceptInvite(deps, ctx, params),
});
