/** The settings of a new org, and the value of any setting an org has not stored. */
export const DEFAULT_ORG_SETTINGS = {
  attachments_enabled: true,
  default_inbox_ttl: "10m",
  max_inbox_ttl: "24h",
  max_attachment_size_mb: 25,
  max_domains: 10,
  max_teams: 20,
  max_inboxes_per_domain: 1000,
  enforce_sso: false,
  /** Extensions 10: whom mail from the org's inboxes may reach besides BurnBox's own inboxes (none by default). */
  outbound: { allowed_recipients: [] as string[] },
};

/** The TTL settings an org follows until it sets its own: the platform's (PUT /admin/platform). */
export const TTL_KEYS = ["default_inbox_ttl", "max_inbox_ttl"] as const;

/** What a new org stores: the defaults but the TTLs, which follow the platform until the org sets them. */
export const NEW_ORG_SETTINGS = Object.fromEntries(
  Object.entries(DEFAULT_ORG_SETTINGS).filter(([k]) => !(TTL_KEYS as readonly string[]).includes(k)),
);

/** An org's stored settings over the defaults; unset TTLs are the platform's (`platformTtl`, else 10m and 24h). */
export const withOrgDefaults = (stored: Record<string, unknown>, platformTtl?: { default_inbox_ttl: string; max_inbox_ttl: string }) => ({
  ...DEFAULT_ORG_SETTINGS,
  ...(platformTtl ?? {}),
  ...stored,
});
