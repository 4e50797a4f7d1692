import type { EmailsPerDay } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { emailsPerDay } from "./emails-per-day";

export async function getOrgEmailsPerDay(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string; days: number },
): Promise<EmailsPerDay> {
  const scope = await requireOrg(deps, ctx, input, "org.analytics.view");
  return emailsPerDay(deps, scope, input.days);
}
