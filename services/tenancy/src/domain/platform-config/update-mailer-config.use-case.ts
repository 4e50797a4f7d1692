import { EventType, type MailerConfig, type UpdateMailerConfigBody } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { TenancyDeps } from "../deps";
import { requirePlatformAdmin } from "./platform-admin";
import { checkMailerTarget, configuredMailerView, isConfiguredMailer } from "./mailer-target";
import { mailerView, nextSealedSecret, secretChange } from "./platform-config-rules";

/**
 * Replaces the mailer configuration (the password: "" or absent keeps, null clears, a value is
 * sealed with `encryption.key`, 400 without one). The host and port are held to the SMTP probe's
 * rules first (400, nothing saved). A PUT of exactly the configured mailer (`mail.*`, password
 * kept) removes the saved one instead: the mailer goes back to the configuration. Every identity
 * replica reloads it on the event.
 */
export async function updateMailerConfig(deps: TenancyDeps, ctx: RequestCtx, input: UpdateMailerConfigBody): Promise<MailerConfig> {
  requirePlatformAdmin(ctx);
  if (isConfiguredMailer(deps.config.mail, input)) return backToConfiguration(deps, ctx);
  await checkMailerTarget(deps.config, input.host, input.port);
  const change = secretChange(input.password);
  return deps.data.write(async (repos, events) => {
    const stored = await repos.platformConfig.mailer();
    const sealed = nextSealedSecret(stored?.password_sealed ?? null, change, (plain) => deps.secrets.seal(plain));
    const fields = { host: input.host, port: input.port, username: input.username ?? "", from: input.from, tls: input.tls };
    await repos.platformConfig.saveMailer(fields, sealed, ctx.actor.user_id);
    events.event(EventType.mailerConfigChanged, { org_id: null, team_id: null, data: {} });
    events.audit({
      ctx,
      action: "admin.mailer_config_updated",
      org_id: null,
      target: { type: "platform_config", id: "mailer" },
      metadata: { ...fields, password: change.kind === "set" ? "changed" : change.kind === "clear" ? "cleared" : "kept" },
    });
    return mailerView({ ...fields, password_sealed: sealed });
  });
}

async function backToConfiguration(deps: TenancyDeps, ctx: RequestCtx): Promise<MailerConfig> {
  return deps.data.write(async (repos, events) => {
    await repos.platformConfig.clearMailer();
    events.event(EventType.mailerConfigChanged, { org_id: null, team_id: null, data: {} });
    events.audit({
      ctx,
      action: "admin.mailer_config_updated",
      org_id: null,
      target: { type: "platform_config", id: "mailer" },
      metadata: { source: "configuration" },
    });
    return configuredMailerView(deps.config.mail);
  });
}
