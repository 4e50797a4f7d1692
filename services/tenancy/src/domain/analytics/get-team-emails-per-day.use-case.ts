import type { EmailsPerDay } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { requireTeam } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { emailsPerDay } from "./emails-per-day";

export async function getTeamEmailsPerDay(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string; teamId: string; days: number },
): Promise<EmailsPerDay> {
  const scope = await requireTeam(deps, ctx, input, "team.analytics.view");
  return emailsPerDay(deps, scope, input.days);
}
