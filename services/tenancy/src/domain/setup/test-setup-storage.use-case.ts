import type { InfraTestResult, SetupTestStorageBody } from "@burnbox/contracts";
import type { TenancyDeps } from "../deps";
import { probeStorage } from "../infra-probe";
import { adminProbeEnv } from "../platform-config/probe-env";

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
