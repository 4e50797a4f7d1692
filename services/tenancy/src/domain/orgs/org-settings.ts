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
};

/** An org's stored settings over the defaults. */
export const withOrgDefaults = (stored: Record<string, unknown>) => ({ ...DEFAULT_ORG_SETTINGS, ...stored });
