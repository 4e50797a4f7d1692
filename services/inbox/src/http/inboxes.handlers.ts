import type { inboxesRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit/http";
import type { InboxDeps } from "../domain/deps";
import { createInbox } from "../domain/inboxes/create-inbox.use-case";
import { deleteInbox } from "../domain/inboxes/delete-inbox.use-case";
import { extendInbox } from "../domain/inboxes/extend-inbox.use-case";
import { getInbox } from "../domain/inboxes/get-inbox.use-case";
import { listInboxes } from "../domain/inboxes/list-inboxes.use-case";
import { listTeamInboxes } from "../domain/inboxes/list-team-inboxes.use-case";
import { updateInbox } from "../domain/inboxes/update-inbox.use-case";

export const inboxesHandlers = (deps: InboxDeps): Handlers<typeof inboxesRoutes> => ({
  createInbox: ({ ctx, body }) => createInbox(deps, ctx, body),
  listInboxes: ({ ctx, query }) => listInboxes(deps, ctx, query),
  getInbox: ({ ctx, params }) => getInbox(deps, ctx, { inboxId: params.id }),
  updateInbox: ({ ctx, params, body }) => updateInbox(deps, ctx, { inboxId: params.id, body }),
  extendInbox: ({ ctx, params, body }) => extendInbox(deps, ctx, { inboxId: params.id, body }),
  deleteInbox: ({ ctx, params }) => deleteInbox(deps, ctx, { inboxId: params.id }),
  listTeamInboxes: ({ ctx, params, query }) => listTeamInboxes(deps, ctx, { orgId: params.orgId, teamId: params.teamId, page: query }),
});
