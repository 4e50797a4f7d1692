import { EventType } from "@burnbox/contracts";
import { startConsumer, type RunningConsumer } from "@burnbox/service-kit/messaging";
import type { Logger } from "@burnbox/service-kit/runtime";
import type { TenancyDeps } from "../domain/deps";
import { provisionSsoUser } from "../domain/provisioning/provision-sso-user.use-case";

const SSO_PROVISIONED = "tenancy-sso-provisioned";

/** The memberships of users created by a first SSO login (identity's outbox), one durable consumer shared by replicas. */
export async function startSsoProvisioningConsumer(deps: TenancyDeps, logger: Logger): Promise<RunningConsumer[]> {
  const { nc } = deps;
  return [
    await startConsumer({
      nc,
      namespace: deps.config.nats.namespace,
      durable: SSO_PROVISIONED,
      eventType: EventType.userSsoProvisioned,
      logger,
      handler: (event) => provisionSsoUser(deps, logger, { consumer: SSO_PROVISIONED, event }),
    }),
  ];
}
