import { randomBytes } from "node:crypto";
import ipaddr from "ipaddr.js";
import { API_KEY_PREFIX_LENGTH } from "@burnbox/contracts";
import { errors } from "@burnbox/service-kit/runtime";
import { sha256 } from "../tokens";

/** `bb_` + 64 lowercase hex from 32 random bytes; only its SHA-256 and display prefix are kept. */
export function newRawKey(): { raw: string; hash: string; prefix: string } {
  const raw = `bb_${randomBytes(32).toString("hex")}`;
  return { raw, hash: sha256(raw), prefix: raw.slice(0, API_KEY_PREFIX_LENGTH) };
}

/** Each entry must be an IP address or a CIDR range, v4 or v6; returns them normalised. */
export function normalizeAllowedIps(entries: string[]): string[] {
  return entries.map((entry) => {
    const e = entry.trim().toLowerCase();
    try {
      if (e.includes("/")) {
        const [addr, bits] = ipaddr.parseCIDR(e);
        return `${addr.toString()}/${bits}`;
      }
      return ipaddr.parse(e).toString();
    } catch {
      throw errors.validation(`allowed_ips: "${entry}" is not an IP address or CIDR range`, [
        { path: "allowed_ips", message: "invalid IP or CIDR" },
      ]);
    }
  });
}
