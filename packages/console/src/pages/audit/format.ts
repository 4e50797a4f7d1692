// Plain rules of the audit page: how an entry reads, and which URL filters go to the API.
import { agentName } from "../../lib/user-agent";

/** The contract's filters (contract notes, Audit), by their query names. */
export const AUDIT_FILTERS = [
  "action",
  "category",
  "severity",
  "actor_id",
  "actor_email",
  "resource_type",
  "resource_id",
  "date_from",
  "date_to",
] as const;
export type AuditFilterName = (typeof AUDIT_FILTERS)[number];
export type AuditFilters = Partial<Record<AuditFilterName, string>>;

export const AUDIT_CATEGORIES = [
  "auth",
  "org",
  "member",
  "team",
  "domain",
  "inbox",
  "email",
  "webhook",
  "apikey",
  "admin",
  "notification",
] as const;
export const AUDIT_SEVERITIES = ["info", "warning", "critical"] as const;

const CATEGORY_LABEL: Record<string, string> = {
  auth: "Sign-in and account",
  org: "Organization",
  member: "Members and invites",
  team: "Teams",
  domain: "Domains",
  inbox: "Inboxes",
  email: "Emails",
  webhook: "Webhooks",
  apikey: "API keys",
  admin: "Platform administration",
  notification: "Notifications",
};
export const categoryLabel = (c: string): string => CATEGORY_LABEL[c] ?? c;

const WORDS: Record<string, string> = { apikey: "API key", api_key: "API key", org: "organization", sso: "SSO", ttl: "TTL", smtp: "SMTP" };

/** `member.role_changed` → "Member role changed"; `apikey.rotated` → "API key rotated". */
export function actionLabel(action: string): string {
  const words = action
    .split(/[._]/)
    .filter(Boolean)
    .map((w) => WORDS[w] ?? w);
  const text = words.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Who did it, in words: the address, else what kind of actor. */
export function actorLabel(e: { actor_type: string; actor_email: string | null; actor_id: string | null }): string {
  if (e.actor_email) return e.actor_email;
  if (e.actor_type === "system") return "BurnBox (system)";
  if (e.actor_type === "api_key") return "An API key";
  return e.actor_id ?? "Unknown user";
}

/** What it was done to: the record's human name when it has one, else its id. */
export function targetLabel(e: { resource_type: string; resource_name: string | null; resource_id: string | null }): string {
  const kind = WORDS[e.resource_type] ?? e.resource_type.replace(/_/g, " ");
  const name = e.resource_name ?? e.resource_id;
  return name ? `${kind} ${name}` : kind;
}

/** A short name for a user agent ("Chrome on Linux", "curl"), the whole string (cut at 40) when its browser is unknown. */
export function agentLabel(ua: string | null): string | null {
  if (!ua) return null;
  return agentName(ua) ?? (ua.length > 40 ? `${ua.slice(0, 40)}…` : ua);
}

/** The URL's filters as the API's query (empty ones left out). */
export function apiFilters(filters: AuditFilters): AuditFilters {
  // (absent URL parameters may arrive as null as well as undefined)
  return Object.fromEntries(Object.entries(filters).filter(([, v]) => typeof v === "string" && v !== ""));
}

/**
 * A `datetime-local` input's value (the browser's wall clock, `2026-11-27T14:05`) as RFC 3339 in
 * UTC, and back; "" stays "".
 */
export function localInputToRfc3339(value: string): string {
  if (!value) return "";
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? "" : d.toISOString().replace(/\.\d{3}Z$/, "Z");
}
export function rfc3339ToLocalInput(value: string | undefined): string {
  if (!value) return "";
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return "";
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The file name the API gave (`Content-Disposition: attachment; filename="…"`), else `fallback`. */
export function filenameOf(disposition: string | null, fallback: string): string {
  const m = disposition ? /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition) : null;
  const name = m?.[1] ? decodeURIComponent(m[1]).replace(/[/\\]/g, "_") : "";
  return name || fallback;
}
