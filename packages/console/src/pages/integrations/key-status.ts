import type { components } from "@burnbox/sdk";

export type ApiKey = components["schemas"]["ApiKey"];
export type KeyStatus = "active" | "disabled" | "expired" | "revoked";

/** The key's state as its use would meet it (spec 3.1): revoked wins, then expired, then disabled. */
export function keyStatus(key: Pick<ApiKey, "revoked_at" | "expires_at" | "is_active">, now: number): KeyStatus {
  if (key.revoked_at) return "revoked";
  if (key.expires_at && Date.parse(key.expires_at) <= now) return "expired";
  return key.is_active ? "active" : "disabled";
}

export const STATUS_LABEL: Record<KeyStatus, { label: string; color: string }> = {
  active: { label: "Active", color: "teal" },
  disabled: { label: "Disabled", color: "gray" },
  expired: { label: "Expired", color: "orange" },
  revoked: { label: "Revoked", color: "red" },
};
