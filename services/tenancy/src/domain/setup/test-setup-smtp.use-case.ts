import type { InfraTestResult, SetupTestSmtpBody } from "@burnbox/contracts";
import type { TenancyDeps } from "../deps";
import { probeSmtp } from "../infra-probe";
import { adminProbeEnv } from "../platform-config/probe-env";

/** The setup wizard's SMTP check (token and "not complete" checked before, by the setup guard). */
export function testSetupSmtp(deps: TenancyDeps, input: SetupTestSmtpBody): Promise<InfraTestResult> {
  return probeSmtp(
    { host: input.host, port: input.port, username: input.username, password: input.password, tls: input.tls },
    adminProbeEnv(deps.config),
  );
}
