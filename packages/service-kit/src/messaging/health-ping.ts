import { type HealthPingReply, subjects } from "@burnbox/contracts";
import type { NatsConnection } from "@nats-io/nats-core";
import { timedChecks, type HealthCheck } from "../core/health-checks";
import type { Logger } from "../core/logger";

/**
 * Answers the admin health ping (`subjects(ns).health(service)`, core NATS request/reply, one
 * answer per request through a queue group) with this process's checks: the same ones `/readyz`
 * runs, read when asked, so checks a service adds after start (storage) are included. A stopped
 * service does not answer, which is how admin health sees it down. The subscription ends with
 * the connection (drain on shutdown).
 */
export function serveHealthPing(
  nc: NatsConnection,
  namespace: string,
  service: string,
  checks: Record<string, HealthCheck>,
  logger: Logger,
): void {
  const subject = subjects(namespace).health(service);
  nc.subscribe(subject, {
    queue: subject,
    callback: (err, msg) => {
      if (err) {
        logger.warn({ err }, "health ping subscription error");
        return;
      }
      void timedChecks(checks).then((results) => {
        const reply: HealthPingReply = { service, checks: results };
        msg.respond(JSON.stringify(reply));
      });
    },
  });
}
