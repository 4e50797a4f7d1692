import { randomInt } from "node:crypto";
import { parseDurationMs, type GetAssignmentReply } from "@burnbox/contracts";
import { errors } from "@burnbox/service-kit/runtime";

type Assignment = NonNullable<GetAssignmentReply["assignment"]>;

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/** The local part given to an inbox created without an alias. */
export const randomAlias = (length = 10): string => Array.from({ length }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");

/** Throws unless a team may create inboxes on the domain of this assignment (403 read-only, 400 otherwise). */
export function assertAssignmentUsable(assignment: Assignment): void {
  if (assignment.access_level === "read_only") throw errors.forbidden("this domain is assigned read-only to the team");
  if (!assignment.domain_verified) throw errors.validation("domain is not verified");
  if (assignment.team_archived) throw errors.conflict("team is archived");
}

/** The TTL for a new inbox in ms: the requested one within the limits, else the default (contract notes). */
export function resolveTtlMs(requested: string | undefined, defaultSeconds: number, maxSeconds: number): number {
  const ms = requested ? parseDurationMs(requested) : defaultSeconds * 1000;
  if (ms <= 0) throw errors.validation("ttl must be positive");
  if (ms > maxSeconds * 1000) throw errors.validation(`ttl exceeds the maximum of ${maxSeconds}s`);
  return ms;
}

/** The expiry an extension gives: now + duration (positive), at most created_at + the maximum TTL (contract notes). */
export function extendedExpiry(input: { now: number; createdAt: number; durationMs: number; maxTtlMs: number }): Date {
  if (input.durationMs <= 0) throw errors.validation("duration must be positive");
  const expiresAt = input.now + input.durationMs;
  if (expiresAt > input.createdAt + input.maxTtlMs) {
    throw errors.validation(`extension exceeds the maximum TTL of ${Math.floor(input.maxTtlMs / 1000)}s from the inbox's creation`);
  }
  return new Date(expiresAt);
}
