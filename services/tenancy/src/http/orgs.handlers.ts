import type { orgsRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit/http";
import type { TenancyDeps } from "../domain/deps";
import { createOrg } from "../domain/orgs/create-org.use-case";
import { deleteOrg } from "../domain/orgs/delete-org.use-case";
import { getOrgSettings } from "../domain/orgs/get-org-settings.use-case";
import { getOrg } from "../domain/orgs/get-org.use-case";
import { listOrgs } from "../domain/orgs/list-orgs.use-case";
import { updateOrgSettings } from "../domain/orgs/update-org-settings.use-case";
import { updateOrg } from "../domain/orgs/update-org.use-case";

export const orgsHandlers = (deps: TenancyDeps): Handlers<typeof orgsRoutes> => ({
  createOrg: ({ ctx, body }) => createOrg(deps, ctx, body),
  getOrg: ({ ctx, params }) => getOrg(deps, ctx, params),
  listOrgs: ({ ctx, query }) => listOrgs(deps, ctx, query),
  updateOrg: ({ ctx, params, body }) => updateOrg(deps, ctx, { ...params, ...body }),
  deleteOrg: ({ ctx, params, body }) => deleteOrg(deps, ctx, { ...params, ...body }),
  getOrgSettings: ({ ctx, params }) => getOrgSettings(deps, ctx, params),
  updateOrgSettings: ({ ctx, params, body }) => updateOrgSettings(deps, ctx, { ...params, changes: body }),
  replaceOrgSettings: ({ ctx, params, body }) => updateOrgSettings(deps, ctx, { ...params, changes: body }),
});
