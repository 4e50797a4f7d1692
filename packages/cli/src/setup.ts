import { Option, type Command } from "commander";
import type { Domain } from "@burnbox/sdk";
import { readConfig, writeConfig, type StoredConfig } from "./config.js";
import type { CommandContext } from "./context.js";
import { UsageError } from "./usage-error.js";

/** What the setup commands share with the rest of the program. */
export type SetupContext = CommandContext;

/** The scopes `key create` gives when none is named: what a test suite needs to create inboxes and read their mail. */
export const DEFAULT_KEY_SCOPES = ["team.inboxes.create", "team.inboxes.view", "team.emails.view"] as const;

const ACCESS_LEVELS = ["full", "create_inbox", "read_only"] as const;
/** Lookups by name read one page this long (the largest the API serves). */
const LOOKUP_PAGE = { per_page: 100 } as const;

const collect = (v: string, prev: string[] = []) => [...prev, v];

type Printed = { json?: boolean; quiet?: boolean };

/**
 * The commands a new user needs before the first inbox: an org, a team, a domain assigned to the
 * team, and a team API key for the tests; and `init`, which does the first three at once (reusing
 * what exists by name) and remembers them as the defaults of --org, --team and --domain-assignment.
 * Every create prints the new thing's id first (tab-separated with its name), only the id with
 * --quiet, or the whole answer with --json.
 */
export function addSetupCommands(program: Command, ctx: SetupContext): void {
  const { term } = ctx;
  const json = (v: unknown) => term.json(v);
  const stored = (): StoredConfig => readConfig(ctx.file());
  const orgOf = (o: { org?: string }) => {
    const id = o.org ?? stored().org_id;
    if (!id) throw new UsageError("no org: pass --org <id>, or run `burnbox init` once");
    return id;
  };
  const teamOf = (o: { team?: string }) => {
    const id = o.team ?? stored().team_id;
    if (!id) throw new UsageError("no team: pass --team <id>, or run `burnbox init` once");
    return id;
  };
  const printCreated = (o: Printed, value: { id: string }, row: string[]) => {
    if (o.json) json(value);
    else if (o.quiet) term.row(value.id);
    else term.row(...row);
  };
  const withOutput = (cmd: Command) =>
    cmd
      .addOption(new Option("--json", "print the answer as JSON"))
      .addOption(new Option("-q, --quiet", "print only the id").conflicts("json"));
  const orgOption = () => new Option("--org <orgId>", "the organization (default: the one `burnbox init` stored)");
  const teamOption = () => new Option("--team <teamId>", "the team (default: the one `burnbox init` stored)");

  /** DNS records a domain that is not verified yet needs, on stderr (stdout stays the id). */
  const dnsHint = (d: Domain) => {
    if (d.status === "verified") return;
    term.err(`${d.domain_name} is ${d.status}: publish these DNS records, then run \`burnbox domain verify ${d.id}\``);
    if (!d.mx_verified) term.err(`  ${d.domain_name}. MX 10 ${d.mx_target}.`);
    if (!d.txt_verified) term.err(`  ${d.domain_name}. TXT "${d.verification_record}"`);
    if (!d.spf_verified) term.err(`  ${d.domain_name}. TXT "v=spf1 mx ~all"   (SPF, recommended)`);
    if (d.dkim_record && !d.dkim_verified)
      term.err(`  ${d.dkim_record.name}. TXT "${d.dkim_record.value}"   (DKIM, signs mail sent from its inboxes)`);
  };
  const domainRow = (d: Domain) => [d.id, d.domain_name, d.status];

  // ---- org
  const org = program.command("org").description("organizations: create one, list yours");
  withOutput(
    org
      .command("create")
      .description("create an organization (you become its owner); prints its id")
      .argument("<name>", "its display name")
      .option("--slug <slug>", "its URL handle (default: from the name)"),
  ).action(async (name: string, o: Printed & { slug?: string }) => {
    const bb = await ctx.client();
    const created = await bb.createOrg({ name, ...(o.slug ? { slug: o.slug } : {}) });
    printCreated(o, created, [created.id, created.slug, created.name]);
  });
  org
    .command("ls")
    .description("list your organizations: id, slug, name, your role")
    .option("--json", "print the page as JSON")
    .action(async (o: { json?: boolean }) => {
      const page = await (await ctx.client()).listOrgs(LOOKUP_PAGE);
      if (o.json) return json(page);
      for (const x of page.data) term.row(x.id, x.slug, x.name, x.role);
    });

  // ---- team
  const team = program.command("team").description("teams of an organization: create one, list them");
  withOutput(
    team
      .command("create")
      .description("create a team (you become its lead); prints its id")
      .argument("<name>", "its display name")
      .addOption(orgOption())
      .option("--description <text>", "what the team is for"),
  ).action(async (name: string, o: Printed & { org?: string; description?: string }) => {
    const orgId = orgOf(o);
    const bb = await ctx.client();
    const created = await bb.createTeam(orgId, { name, ...(o.description ? { description: o.description } : {}) });
    printCreated(o, created, [created.id, created.slug, created.name]);
  });
  team
    .command("ls")
    .description("list the teams of an organization: id, slug, name")
    .addOption(orgOption())
    .option("--json", "print the page as JSON")
    .action(async (o: { org?: string; json?: boolean }) => {
      const orgId = orgOf(o);
      const page = await (await ctx.client()).listTeams(orgId, LOOKUP_PAGE);
      if (o.json) return json(page);
      for (const x of page.data) term.row(x.id, x.slug, x.name);
    });

  // ---- domain
  const domain = program.command("domain").description("mail domains: add one, verify its DNS, assign it to a team, list them");
  withOutput(
    domain
      .command("add")
      .description("add a mail domain to an organization; prints its id (and on stderr the DNS records it still needs)")
      .argument("<domainName>", "e.g. qa.example.com (a subdomain of a trusted domain needs no DNS)")
      .addOption(orgOption())
      .option("--description <text>", "what the domain is for"),
  ).action(async (name: string, o: Printed & { org?: string; description?: string }) => {
    const orgId = orgOf(o);
    const bb = await ctx.client();
    const created = await bb.createDomain(orgId, name, o.description);
    printCreated(o, created, domainRow(created));
    dnsHint(created);
  });
  domain
    .command("verify")
    .description("check the domain's DNS records now; exit 0 when it is verified, 1 when records are still missing")
    .argument("<domainId>", "the domain")
    .addOption(orgOption())
    .option("--json", "print the domain as JSON")
    .action(async (domainId: string, o: { org?: string; json?: boolean }) => {
      const orgId = orgOf(o);
      const checked = await (await ctx.client()).verifyDomain(orgId, domainId);
      if (o.json) json(checked);
      else
        term.row(
          ...domainRow(checked),
          `mx=${checked.mx_verified}`,
          `txt=${checked.txt_verified}`,
          `spf=${checked.spf_verified}`,
          `dkim=${checked.dkim_verified}`,
        );
      if (checked.status !== "verified") {
        dnsHint(checked);
        throw new Error(`${checked.domain_name} is not verified yet`);
      }
    });
  withOutput(
    domain
      .command("assign")
      .description("assign a domain to a team; prints the assignment's id, which `inbox create --domain-assignment` takes")
      .argument("<domainId>", "the domain")
      .addOption(orgOption())
      .addOption(teamOption())
      .addOption(new Option("--access <level>", "what the team may do on it").choices([...ACCESS_LEVELS]).default("full")),
  ).action(async (domainId: string, o: Printed & { org?: string; team?: string; access: (typeof ACCESS_LEVELS)[number] }) => {
    const [orgId, teamId] = [orgOf(o), teamOf(o)];
    const bb = await ctx.client();
    const created = await bb.assignDomain(orgId, teamId, domainId, o.access);
    printCreated(o, created, [created.id, created.domain_name, created.access_level]);
  });
  domain
    .command("ls")
    .description("list an organization's domains (id, name, status), or with --assigned the assignments you may create inboxes on")
    .addOption(orgOption())
    .option("--assigned", "the domain assignments you may create inboxes on: assignment id, domain, team, access")
    .option("--json", "print the page as JSON")
    .action(async (o: { org?: string; assigned?: boolean; json?: boolean }) => {
      const orgId = o.assigned ? undefined : orgOf(o);
      const bb = await ctx.client();
      if (o.assigned || !orgId) {
        const page = await bb.listMyDomains(LOOKUP_PAGE);
        if (o.json) return json(page);
        for (const a of page.data) term.row(a.id, a.domain_name, a.team_name, a.access_level);
        return;
      }
      const page = await bb.listDomains(orgId, LOOKUP_PAGE);
      if (o.json) return json(page);
      for (const d of page.data) term.row(...domainRow(d));
    });

  // ---- key
  const key = program.command("key").description("team API keys: what a test suite authenticates with (BURNBOX_API_KEY)");
  key
    .command("create")
    .description("create a team API key; prints the key (bb_...), shown only this once")
    .requiredOption("--name <name>", "what the key is for, e.g. ci")
    .option("--scope <permission>", `a permission of the key, repeatable (default: ${DEFAULT_KEY_SCOPES.join(", ")})`, collect)
    .option("--expires-in <duration>", "its lifetime, e.g. 90d (default: no expiry)")
    .option("--allow-ip <ipOrCidr>", "accept the key only from this address or range, repeatable", collect)
    .addOption(orgOption())
    .addOption(teamOption())
    .option("--json", "print the key with its details as JSON")
    .action(
      async (o: {
        name: string;
        scope?: string[];
        expiresIn?: string;
        allowIp?: string[];
        org?: string;
        team?: string;
        json?: boolean;
      }) => {
        const [orgId, teamId] = [orgOf(o), teamOf(o)];
        const bb = await ctx.client();
        const created = await bb.createApiKey(orgId, teamId, {
          name: o.name,
          scopes: o.scope ?? [...DEFAULT_KEY_SCOPES],
          ...(o.expiresIn ? { expires_in: o.expiresIn } : {}),
          ...(o.allowIp ? { allowed_ips: o.allowIp } : {}),
        });
        if (o.json) json(created);
        else term.row(created.raw_key);
      },
    );

  // ---- init
  program
    .command("init")
    .description(
      "set up what inboxes need in one step: an org, a team and a domain assigned to it (each reused when one of that name exists); " +
        "remembers them in the config file as the defaults of --org, --team and --domain-assignment, and prints the assignment's id",
    )
    .requiredOption("--org <name>", "the organization's name")
    .requiredOption("--team <name>", "the team's name")
    .requiredOption("--domain <domainName>", "the mail domain, e.g. qa.burnbox.test on a local BurnBox")
    .option("--json", "print the org, team, domain and assignment as JSON")
    .action(async (o: { org: string; team: string; domain: string; json?: boolean }) => {
      const bb = await ctx.client();
      const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
      const report = (what: string, name: string, reused: boolean) => term.err(`${reused ? "using" : "created"} ${what} ${name}`);

      const existingOrg = (await bb.listOrgs(LOOKUP_PAGE)).data.find((x) => same(x.name, o.org));
      const theOrg = existingOrg ?? (await bb.createOrg({ name: o.org }));
      report("org", theOrg.name, Boolean(existingOrg));

      const existingTeam = (await bb.listTeams(theOrg.id, { ...LOOKUP_PAGE, q: o.team })).data.find((x) => same(x.name, o.team));
      const theTeam = existingTeam ?? (await bb.createTeam(theOrg.id, { name: o.team }));
      report("team", theTeam.name, Boolean(existingTeam));
      writeConfig(ctx.file(), { ...stored(), org_id: theOrg.id, team_id: theTeam.id });

      const existingDomain = (await bb.listDomains(theOrg.id, LOOKUP_PAGE)).data.find((x) => same(x.domain_name, o.domain));
      const theDomain = existingDomain ?? (await bb.createDomain(theOrg.id, o.domain.trim().toLowerCase()));
      report("domain", theDomain.domain_name, Boolean(existingDomain));
      if (theDomain.status !== "verified") {
        // a team can be given a domain only once it is verified
        dnsHint(theDomain);
        throw new Error(`${theDomain.domain_name} is not verified yet: run \`burnbox init\` again once \`burnbox domain verify\` passes`);
      }

      const existingAssignment = (await bb.listTeamDomains(theOrg.id, theTeam.id, LOOKUP_PAGE)).data.find(
        (a) => a.domain_id === theDomain.id,
      );
      const assignment = existingAssignment ?? (await bb.assignDomain(theOrg.id, theTeam.id, theDomain.id));
      report("assignment of", `${theDomain.domain_name} to ${theTeam.name}`, Boolean(existingAssignment));

      writeConfig(ctx.file(), { ...stored(), domain_assignment_id: assignment.id });
      if (o.json) json({ org: theOrg, team: theTeam, domain: theDomain, assignment });
      else term.row(assignment.id);
    });
}
