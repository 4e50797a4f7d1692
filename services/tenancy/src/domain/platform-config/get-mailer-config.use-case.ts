import type { MailerConfig } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { TenancyDeps } from "../deps";
import { requirePlatformAdmin } from "./platform-admin";
import { configuredMailerView } from "./mailer-target";
import { mailerView } from "./platform-config-rules";

/** The mailer in effect, without its password (`has_password`): the saved one, else the configured one (`mail.*`). */
export async function getMailerConfig(deps: TenancyDeps, ctx: RequestCtx): Promise<MailerConfig> {
  requirePlatformAdmin(ctx);
  const saved = await deps.data.repos.platformConfig.mailer();
  return saved ? mailerView(saved) : configuredMailerView(deps.config.mail);
}
