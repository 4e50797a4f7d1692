import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Logger } from "@burnbox/service-kit/runtime";
import type { TenancyDeps } from "../deps";

const sha256 = (s: string): Buffer => createHash("sha256").update(s, "utf8").digest();

/** Whether a request's `setup_token` is the installation's (compared in constant time, as hashes). */
export type SetupTokenCheck = (given: string | undefined) => boolean;

export const tokenMatches = (expectedHash: Buffer, given: string | undefined): boolean =>
  typeof given === "string" && given.length > 0 && timingSafeEqual(sha256(given), expectedHash);

/**
 * The setup token: `setup.token` when configured; else one generated now, whose hash is stored so
 * that every replica accepts the same token, and logged once, by the replica that generated it.
 * Once setup is complete nothing is generated or logged.
 */
export async function prepareSetupToken(deps: Pick<TenancyDeps, "config" | "data">, logger: Logger): Promise<SetupTokenCheck> {
  if (deps.config.setup.token) {
    const hash = sha256(deps.config.setup.token);
    return (given) => tokenMatches(hash, given);
  }
  if (await deps.data.repos.setup.completed()) return () => false;
  const candidate = randomBytes(24).toString("base64url");
  const claimed = await deps.data.repos.setup.claimTokenHash(sha256(candidate).toString("hex"));
  if (claimed.mine) {
    logger.warn({ setup_token: candidate }, "first-run setup token (setup.token is not set): POST /api/v1/setup/complete with it");
  }
  const hash = Buffer.from(claimed.hash, "hex");
  return (given) => tokenMatches(hash, given);
}
