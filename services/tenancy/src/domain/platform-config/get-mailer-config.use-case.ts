import type { MailerConfig } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit";
import type { TenancyDeps } from "../deps";
import { requirePlatformAdmin } from "./platform-admin";
import { mailerView } from "./platform-config-rules";

/** The saved mailer, without its password (`has_password`). */
export async function getMailerConfig(deps: TenancyDeps, ctx: RequestCtx): Promise<MailerConfig> {
  requirePlatformAdmin(ctx);
  return mailerView(await deps.data.repos.platformConfig.mailer());
}
