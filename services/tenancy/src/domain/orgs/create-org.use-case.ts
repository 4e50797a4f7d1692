import { randomUUID } from "node:crypto";
import type { CreateOrgBody, Org } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { TenancyDeps } from "../deps";
import { withFreeSlug } from "../slug";
import { NEW_ORG_SETTINGS } from "./org-settings";

/** Creates an org; its creator becomes the owner. A chosen slug that is taken is a 409. */
export async function createOrg(deps: TenancyDeps, ctx: RequestCtx, input: CreateOrgBody): Promise<Org> {
  // any user may create an org: there is no tenant yet to check access against
  return withFreeSlug(input, (slug) =>
    deps.data.write(async (repos, events) => {
      const scope = { orgId: randomUUID() };
      const org = await repos.orgs.create(scope, {
        name: input.name,
        slug,
        logoUrl: input.logo_url ?? null,
        settings: NEW_ORG_SETTINGS,
        ownerUserId: ctx.actor.user_id,
      });
      events.audit({
        ctx,
        action: "org.created",
        org_id: scope.orgId,
        target: { type: "org", id: scope.orgId },
        metadata: { name: input.name, slug },
      });
      return org;
    }),
  );
}
