// The migration linter's allow-list (migration-lint.mjs): each finding waived, with why. Reviewed
// like code: an entry is added only for a migration already shipped, or for the contract step of
// an expand/contract change whose expand shipped a release before (name that release in `reason`).
// `sha256` is the first 16 hex digits of the migration file as waived: a waived migration edited
// afterwards is a finding again (shipped migrations are never edited; add a new one).
//
// Every entry below predates the rule (issue 41): these migrations shipped before BurnBox had a
// release that a rolling update could leave serving beside the next one. Their cost on an existing
// database is the one each file's comment states; from now on the same changes are written the
// way the rule says (docs/operations.md, "Changing the schema").

const SHIPPED = "shipped before the schema-change rule (issue 41)";

export const ALLOWED = [
  {
    service: "identity",
    migration: "0005_cascade",
    sha256: "a5b5386198387b7d",
    rule: "index-not-concurrent",
    target: "api_keys.api_keys_org_id_idx",
    reason: `${SHIPPED}; api_keys holds one row per key, a build of milliseconds`,
  },
  {
    service: "inbox",
    migration: "0002_counts_from_emails",
    sha256: "d63ad1c1fbaaefe9",
    rule: "drop-column",
    target: "inboxes.email_count",
    reason: `${SHIPPED}; the counters were dropped with the code that wrote them, before any release`,
  },
  {
    service: "inbox",
    migration: "0002_counts_from_emails",
    sha256: "d63ad1c1fbaaefe9",
    rule: "drop-column",
    target: "inboxes.unread_count",
    reason: `${SHIPPED}; as email_count`,
  },
  {
    service: "inbox",
    migration: "0003_inbox_ttl_and_file_keys",
    sha256: "a14c0122ae80192a",
    rule: "set-not-null",
    target: "inboxes.ttl_ms",
    reason: `${SHIPPED}; the column is added, filled and tightened in one transaction, so no release ever inserted without it`,
  },
  {
    service: "inbox",
    migration: "0003_inbox_ttl_and_file_keys",
    sha256: "a14c0122ae80192a",
    rule: "index-not-concurrent",
    target: "emails.emails_raw_key_idx",
    reason: SHIPPED,
  },
  {
    service: "inbox",
    migration: "0003_inbox_ttl_and_file_keys",
    sha256: "a14c0122ae80192a",
    rule: "index-not-concurrent",
    target: "attachments.attachments_storage_key_idx",
    reason: SHIPPED,
  },
  {
    service: "inbox",
    migration: "0005_cascade",
    sha256: "53ebc8617fd99f04",
    rule: "index-not-concurrent",
    target: "inboxes.inboxes_org_id_idx",
    reason: SHIPPED,
  },
  {
    service: "inbox",
    migration: "0005_cascade",
    sha256: "53ebc8617fd99f04",
    rule: "index-not-concurrent",
    target: "inboxes.inboxes_domain_id_expires_at_idx",
    reason: SHIPPED,
  },
  ...["emails_subject_trgm_idx", "emails_from_address_trgm_idx", "emails_to_address_trgm_idx"].map((index) => ({
    service: "inbox",
    migration: "0009_email_search",
    sha256: "9323d94bda6685e5",
    rule: "index-not-concurrent",
    target: `emails.${index}`,
    reason: `${SHIPPED}; its comment states the write lock on emails while the builds run`,
  })),
  {
    service: "inbox",
    migration: "0010_body_search",
    sha256: "37c12f9653bb0b2a",
    rule: "index-not-concurrent",
    target: "emails.emails_body_words_idx",
    reason: `${SHIPPED}; its comment states the write lock on emails while the build runs`,
  },
  // the 1M-email index rebuild: four GIN indexes rebuilt holding emails' writes (451s at the intake)
  ...["emails_body_words_idx", "emails_subject_trgm_idx", "emails_from_address_trgm_idx", "emails_to_address_trgm_idx"].map((index) => ({
    service: "inbox",
    migration: "0012_inbox_scoped_reads",
    sha256: "8c322415a08354a4",
    rule: "index-not-concurrent",
    target: `emails.${index}`,
    reason: `${SHIPPED}; the 1M-email index rebuild, whose comment states the intake's 451s while it runs; a rebuild now is a no-transaction migration`,
  })),
  {
    service: "inbox",
    migration: "0013_body_words_priced",
    sha256: "d32238b8c46eee1a",
    rule: "index-not-concurrent",
    target: "emails.emails_body_words_priced_idx",
    reason: `${SHIPPED}; 145 s holding emails' writes at a million emails (its comment); a rebuild now is a no-transaction migration`,
  },
  {
    service: "webhook-dispatcher",
    migration: "0002_cascade",
    sha256: "34ad5a628984ba01",
    rule: "index-not-concurrent",
    target: "webhooks.webhooks_org_id_idx",
    reason: `${SHIPPED}; one row per webhook, a build of milliseconds`,
  },
];
