import { randomBytes, randomUUID } from "node:crypto";
import { ROUTES, TEAM_PERMISSIONS, type RouteDef } from "@burnbox/contracts";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, buildMessage, deliverOk } from "./clients";
import { SharedSystem } from "./shared-system";
import { createInbox, teamWithDomain, type Api } from "./world";

/** A path's parts that are not ids (a snapshot's pictures): the same in every call. */
const NOT_IDS: Record<string, string> = { kind: "baseline", width: "600", scheme: "light" };

/** Fills a contract path's `{param}`s from `ids`. */
const fill = (path: string, ids: Record<string, string>) =>
  path.replace(/\{([A-Za-z0-9_]+)\}/g, (_m, name: string) => {
    const id = ids[name];
    if (!id) throw new Error(`no id for {${name}} in ${path}`);
    return id;
  });

/**
 * A body the route's own contract schema accepts (the first candidate it parses), so each call
 * reaches the authorization rather than stopping at validation; the same body for both calls.
 */
const someUser = randomUUID();
const CANDIDATE_BODIES: Array<Record<string, unknown>> = [
  { url: "https://hooks.example.com/probe", events: ["email.received"] },
  { name: "probe", scopes: ["team.inboxes.view"] },
  { members: [{ user_id: someUser, role: "member" }] },
  { user_id: someUser, role: "member" },
  { role: "member" },
  { key_ids: [randomUUID()] },
  { user_ids: [someUser] },
  { access_level: "read_only" },
  { duration: "1h" },
  { is_read: true },
  // snapshots (extensions section 12) and mail out (section 10)
  { name: "probe", email_id: randomUUID() },
  { email_id: randomUUID() },
  { snapshot: "probe" },
  { to: ["probe@example.com"] },
  { to: ["probe@example.com"], subject: "probe", text: "probe" },
  { text: "probe" },
  {},
];
function bodyFor(route: RouteDef): Record<string, unknown> | undefined {
  const schema = route.request?.body;
  if (!schema) return undefined;
  const body = CANDIDATE_BODIES.find((c) => schema.safeParse(c).success);
  if (!body) throw new Error(`no sample body fits ${route.operationId}`);
  return body;
}

/**
 * Another tenant's object must answer a team API key exactly like an object that does not exist
 * (contract: tenant data is never confirmed to an outsider). Every operation a key may call with an
 * id in its path (from the contract's ROUTES: auth `user` with a scope) is called with the real
 * ids of another tenant's team, inbox, email, attachment, webhook, key, member and domain, and with
 * random ids; status and body must be the same.
 */
describe("a team API key and another tenant's ids", () => {
  const system = SharedSystem.attach();
  const api: Api = apiClient(system.gatewayUrl);

  /** A tenant with one of everything, and a key holding every team scope. */
  async function populated() {
    const world = await teamWithDomain(api);
    const token = world.owner.token;
    const inbox = await createInbox(api, token, world.assignmentId, `fid-${randomBytes(3).toString("hex")}`);
    // one small attachment, so the foreign tenant has an attachment id too
    const to = inbox.full_address;
    const file = { name: "note.txt", content: "file" };
    await deliverOk(
      system.ports.smtp,
      "probe@example.org",
      to,
      buildMessage({ from: "probe@example.org", to, subject: "foreign ids", text: "body", file }),
    );
    const email = await waitFor(
      async () => (await api<{ data: Array<{ id: string }> }>("GET", `/inboxes/${inbox.id}/emails`, { token })).body.data[0],
      { what: "the mail" },
    );
    const full = await api<{ attachments: Array<{ id: string }> }>("GET", `/emails/${email.id}`, { token });
    const hook = await api<{ id: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/webhooks`, {
      token,
      body: { url: "https://hooks.example.com/foreign", events: ["email.received"] },
    });
    expect(hook.status).toBe(201);
    const key = await api<{ id: string; raw_key: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
      token,
      body: { name: "all", scopes: [...TEAM_PERMISSIONS] },
    });
    expect(key.status).toBe(201);
    const domains = await api<{ data: Array<{ domain_id: string }> }>("GET", `/orgs/${world.orgId}/teams/${world.teamId}/domains`, {
      token,
    });
    const snapshot = await api<{ id: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/snapshots`, {
      token,
      body: { name: "foreign", email_id: email.id },
    });
    expect(snapshot.status).toBe(201);
    const ids: Record<string, string> = {
      snapshotId: snapshot.body.id,
      ...NOT_IDS,
      orgId: world.orgId,
      teamId: world.teamId,
      id: inbox.id,
      keyId: key.body.id,
      userId: world.owner.userId,
      domainId: domains.body.data[0]!.domain_id,
      webhookId: hook.body.id,
      aid: full.body.attachments[0]!.id,
      // no delivery exists here (the mail came before the webhook): another team's real delivery id
      // is tried by webhook-redelivery.e2e.spec.ts
      deliveryId: randomUUID(),
    };
    return { world, inbox, emailId: email.id, ids, key: key.body.raw_key };
  }

  it("when a key calls each of its operations with another tenant's real ids and with random ids, then the answers are identical", async () => {
    const [mine, theirs] = await Promise.all([populated(), populated()]);
    const routes = ROUTES.filter((r) => r.auth === "user" && r.scope && r.path.includes("{"))
      // reads first, deletions last: a write that wrongly succeeded must not hide what follows
      .sort((a, b) => rank(a) - rank(b));
    expect(routes.length).toBeGreaterThan(30);
    const random = (path: string): Record<string, string> =>
      Object.fromEntries(
        [...path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m): [string, string] => [m[1] ?? "", NOT_IDS[m[1] ?? ""] ?? randomUUID()]),
      );
    const differences: string[] = [];
    for (const route of routes) {
      // an email's routes name it {id} as an inbox's do: the foreign id is the email's there
      const foreignIds = route.path.startsWith("/emails/") ? { ...theirs.ids, id: theirs.emailId } : theirs.ids;
      const body = bodyFor(route);
      const call = (path: string) => api(route.method.toUpperCase(), path, { token: mine.key, ...(body ? { body } : {}) });
      const foreign = await call(fill(route.path, foreignIds));
      const unknown = await call(fill(route.path, random(route.path)));
      const seen = (r: { status: number; body: unknown }) => JSON.stringify({ status: r.status, body: r.body });
      if (seen(foreign) !== seen(unknown))
        differences.push(`${route.method.toUpperCase()} ${route.path}: foreign ${seen(foreign)} vs unknown ${seen(unknown)}`);
    }
    expect(differences).toEqual([]);
    // and the other tenant's data is untouched
    expect((await api("GET", `/inboxes/${theirs.inbox.id}`, { token: theirs.world.owner.token })).status).toBe(200);
  });
});

const rank = (r: RouteDef) => (r.method === "get" ? 0 : r.method === "delete" ? 2 : 1);
