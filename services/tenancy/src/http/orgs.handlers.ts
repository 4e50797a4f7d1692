import type { Handlers } from "@burnbox/service-kit";
import type { TenancyDeps } from "../domain/deps";
import { createOrg } from "../domain/orgs/create-org.use-case";
import { getOrg } from "../domain/orgs/get-org.use-case";
import type { OrgsRoutes } from "./routes";

export const orgsHandlers = (deps: TenancyDeps): Handlers<OrgsRoutes> => ({
  createOrg: ({ ctx, body }) => createOrg(deps, ctx, body),
  getOrg: ({ ctx, params }) => getOrg(deps, ctx, params),
});
