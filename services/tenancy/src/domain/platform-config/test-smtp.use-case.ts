import type { InfraTestResult } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { TenancyDeps } from "../deps";
import { probeSmtp } from "../infra-probe";
import { adminProbeEnv } from "./probe-env";
import { requirePlatformAdmin } from "./platform-admin";

/** Tries the saved mailer (greeting, EHLO, TLS, AUTH with the stored password; no mail sent). */
export async function testSmtp(deps: TenancyDeps, ctx: RequestCtx): Promise<InfraTestResult> {
  requirePlatformAdmin(ctx);
  const saved = await deps.data.repos.platformConfig.mailer();
  if (!saved)
    return {
      success: false,
      message: "no mailer is saved: the one from the service's configuration (mail.*) is in use; save a mailer here to test it",
      response_time_ms: 0,
    };
  let password: string | null = null;
  if (saved.password_sealed) {
    try {
      password = deps.secrets.open(saved.password_sealed);
    } catch {
      return { success: false, message: "the stored password cannot be read: check encryption.key", response_time_ms: 0 };
    }
  }
  return probeSmtp(
    { host: saved.host, port: saved.port, username: saved.username || null, password, tls: saved.tls },
    adminProbeEnv(deps.config),
  );
}
