// What every example reads from its environment. npm test sets these for its end-to-end system
// (tests-e2e/src/examples.e2e.spec.ts); point them at your own BurnBox to run an example alone.
export interface ExampleEnv {
  /** BURNBOX_URL: where BurnBox answers. */
  baseUrl: string;
  /** BURNBOX_API_KEY: a team key (bb_…) with team.inboxes.create, team.inboxes.view, team.emails.view. */
  apiKey: string;
  /** BURNBOX_DOMAIN_ASSIGNMENT_ID: the team's domain to create inboxes on. */
  domainAssignmentId: string;
  /** BURNBOX_SMTP_HOST / BURNBOX_SMTP_PORT: the service's SMTP intake (the sign-up app mails through it). */
  smtp: { host: string; port: number };
  /** BURNBOX_ORG_ID / BURNBOX_TEAM_ID: the team the key belongs to (the webhook example creates a webhook on it). */
  team: { orgId: string; teamId: string };
  /** CHROMIUM_PATH: the browser the Playwright example drives (default Debian's /usr/bin/chromium). */
  chromiumPath: string;
}

export function exampleEnv(env: NodeJS.ProcessEnv = process.env): ExampleEnv {
  const need = (name: string): string => {
    const v = env[name];
    if (!v) throw new Error(`${name} is not set (see examples/README.md)`);
    return v;
  };
  return {
    baseUrl: need("BURNBOX_URL"),
    apiKey: need("BURNBOX_API_KEY"),
    domainAssignmentId: need("BURNBOX_DOMAIN_ASSIGNMENT_ID"),
    smtp: { host: env.BURNBOX_SMTP_HOST ?? "127.0.0.1", port: Number(env.BURNBOX_SMTP_PORT ?? 25) },
    team: { orgId: env.BURNBOX_ORG_ID ?? "", teamId: env.BURNBOX_TEAM_ID ?? "" },
    chromiumPath: chromiumPath(env),
  };
}

/** CHROMIUM_PATH, else Debian's /usr/bin/chromium: the browser the Playwright examples drive. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.CHROMIUM_PATH ?? "/usr/bin/chromium";
}

/** WELCOME_RELEASE: which release of the welcome mail the mail snapshot example's second test sends ("good" unless "broken"). */
export function welcomeRelease(env: NodeJS.ProcessEnv = process.env): "good" | "broken" {
  return env.WELCOME_RELEASE === "broken" ? "broken" : "good";
}
