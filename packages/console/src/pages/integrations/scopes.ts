// The scope picker's rules, apart from React: how scopes group, and what each one says.

export const GROUP_LABELS: Record<string, string> = {
  team: "Team",
  members: "Members",
  domains: "Domains",
  webhooks: "Webhooks",
  apikeys: "API keys",
  inboxes: "Inboxes",
  emails: "Emails",
  analytics: "Analytics",
  snapshots: "Snapshots",
};

/** What each built-in scope allows (spec 2.2), for when the catalog's own description only repeats the key. */
const HINTS: Record<string, string> = {
  "team.view": "View team info",
  "team.settings.manage": "Edit team settings",
  "team.members.view": "View team members",
  "team.members.manage": "Add and remove team members",
  "team.members.role": "Change team member roles",
  "team.domains.view": "View domain assignments",
  "team.domains.manage": "Update domain assignment settings",
  "team.webhooks.view": "View webhooks and delivery logs",
  "team.webhooks.manage": "Create, edit and delete webhooks",
  "team.apikeys.view": "View API keys",
  "team.apikeys.manage": "Create, revoke and rotate API keys",
  "team.inboxes.view": "View team inboxes",
  "team.inboxes.create": "Create inboxes",
  "team.inboxes.manage": "Extend and delete inboxes",
  "team.emails.view": "Read emails and attachments",
  "team.emails.manage": "Mark emails read and delete them",
  "team.analytics.view": "View team analytics",
  "team.snapshots.manage": "Save, re-baseline and delete mail snapshots",
};

/** The catalog's description unless it says no more than the key (custom permissions keep theirs). */
export function hintOf(p: { key: string; label: string; description: string }): string {
  const says = (t: string) => t.trim() !== "" && !t.includes(p.key);
  if (says(p.description)) return p.description;
  return HINTS[p.key] ?? (says(p.label) ? p.label : "");
}

/** `team.inboxes.create` -> "inboxes"; `team.view`, `team.settings.manage` -> "team". */
export const groupOf = (key: string) => {
  const parts = key.split(".");
  return parts.length > 2 && parts[1] !== "settings" ? parts[1]! : "team";
};
