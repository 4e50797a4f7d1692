import type { InfraTestResult, SetupTestSmtpBody, SetupTestStorageBody } from "@burnbox/contracts";
import type { TenancyDeps } from "../deps";
import { probeSmtp, probeStorage } from "../infra-probe";
import { adminProbeEnv } from "../platform-config/probe-env";

/** The setup wizard's SMTP check (token and "not complete" checked before, by the setup guard). */
export function testSetupSmtp(deps: TenancyDeps, input: SetupTestSmtpBody): Promise<InfraTestResult> {
  return probeSmtp(
    { host: input.host, port: input.port, username: input.username, password: input.password, tls: input.tls },
    adminProbeEnv(deps.config),
  );
}

/** The setup wizard's storage check. */
export function testSetupStorage(deps: TenancyDeps, input: SetupTestStorageBody): Promise<InfraTestResult> {
  return probeStorage(
    {
      provider: input.provider,
      endpoint: input.endpoint,
      bucket: input.bucket,
      region: input.region,
      access_key: input.access_key,
      secret_key: input.secret_key,
      use_ssl: input.use_ssl,
    },
    adminProbeEnv(deps.config),
  );
}
