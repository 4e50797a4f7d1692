import type { AuditActorType, AuditCategory, AuditSeverity } from "@burnbox/contracts";

/**
 * Contract notes (Audit): the category is the action's resource (`<resource>.<verb>`), with
 * user and session under auth, invite under member, domain_assignment under domain; resources of
 * platform administration (roles, SSO providers and mappings, setup, platform settings) are admin.
 */
const CATEGORY_OF_RESOURCE: Record<string, AuditCategory> = {
  user: "auth",
  session: "auth",
  sso: "auth",
  org: "org",
  member: "member",
  invite: "member",
  team: "team",
  domain: "domain",
  domain_assignment: "domain",
  inbox: "inbox",
  demo: "inbox",
  email: "email",
  webhook: "webhook",
  apikey: "apikey",
  api_key: "apikey",
  admin: "admin",
  role: "admin",
  sso_provider: "admin",
  sso_domain_mapping: "admin",
  setup: "admin",
  platform: "admin",
  notification: "notification",
};

/** The action's category; an action of an unknown resource falls back to its target's type, then admin. */
export function categoryOf(action: string, resourceType: string): AuditCategory {
  const resource = action.split(".", 1)[0] ?? "";
  return CATEGORY_OF_RESOURCE[resource] ?? CATEGORY_OF_RESOURCE[resourceType] ?? "admin";
}

/** Whole actions that can lose an org's data or lock people out. */
const CRITICAL = new Set([
  "org.deleted",
  "team.deleted",
  "team.transferred",
  "user.deleted",
  "admin.user_deleted",
  "apikey.bulk_revoked",
  "sso_provider.deleted",
  "role.deleted",
]);
/** Verbs that remove, revoke or fail: worth a look, not an alarm. */
const WARNING_VERB = /(deleted|revoked|removed|failed|deactivated|unassigned|archived|unlinked|role_changed|sessions_revoked|transferred)$/;

/** The emitter's severity when it set one, else critical for the few destructive actions, warning for removals and failures. */
export function severityOf(action: string, declared: AuditSeverity | undefined): AuditSeverity {
  if (declared) return declared;
  if (CRITICAL.has(action)) return "critical";
  return WARNING_VERB.test(action.slice(action.indexOf(".") + 1)) ? "warning" : "info";
}

/** An API key acts as its creator: the entry names the creator as actor and says it was a key. */
export function actorTypeOf(actor: { userId: string | null; apiKeyId: string | null }): AuditActorType {
  if (actor.apiKeyId) return "api_key";
  return actor.userId ? "user" : "system";
}

/** Where emitters put the record's human name in their metadata, when they did not name the target. */
const NAME_KEYS = ["name", "full_address", "domain_name", "url", "subject", "email", "domain"] as const;

export function resourceNameOf(declared: string | undefined, metadata: Record<string, unknown>): string | null {
  if (declared) return declared;
  for (const key of NAME_KEYS) {
    const v = metadata[key];
    if (typeof v === "string" && v !== "") return v;
  }
  return null;
}

/** Keys whose string values are credentials; `client_secret_changed: true` and the like stay. */
const SECRET_KEY = /(password|passwd|secret|token|raw_key|key_hash|private_key|credential|authorization|cookie|^api_key$)/i;
/** Values that are credentials whatever their key: a full API key, a JWT. */
const SECRET_VALUE = /^(bb_[0-9a-f]{64}|eyJ[\w-]+\.[\w-]+\.[\w-]+)$/;
export const REDACTED = "[redacted]";

/** The emitter's metadata with any secret replaced (contract notes: secrets never appear in metadata). */
export function withoutSecrets(value: unknown, key = ""): unknown {
  if (typeof value === "string") return SECRET_VALUE.test(value) || (key !== "" && SECRET_KEY.test(key)) ? REDACTED : value;
  if (Array.isArray(value)) return value.map((v) => withoutSecrets(v, key));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutSecrets(v, k)]));
  }
  return value;
}
