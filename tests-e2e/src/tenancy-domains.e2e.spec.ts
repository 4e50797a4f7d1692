import { randomBytes, randomUUID } from "node:crypto";
import dns2 from "dns2";
import { apiClient } from "./clients";
import { SharedSystem } from "./shared-system";
import { registerUser } from "./world";

const { Packet } = dns2;
/** Response code NXDOMAIN (RFC 1035 4.1.1); the package's typings do not list its RCODE table. */
const NXDOMAIN = 3;

interface Domain {
  id: string;
  domain_name: string;
  status: string;
  mx_verified: boolean;
  txt_verified: boolean;
  verification_record: string;
  mx_target: string;
}

/** The world's DNS, as far as the system under test sees it: a dns2 server on the port the system was told to ask. */
async function startWorldDns(port: number) {
  const zones = new Map<string, { mx: string[]; txt: string[] }>();
  const server = dns2.createServer({
    udp: true,
    tcp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const question = request.questions[0];
      const zone = question ? zones.get(question.name.toLowerCase()) : undefined;
      if (!question || !zone) response.header.rcode = NXDOMAIN;
      else if (question.type === Packet.TYPE.MX)
        for (const exchange of zone.mx)
          response.answers.push(Packet.createResourceFromQuestion(question, { ttl: 60, exchange, priority: 10 }));
      else if (question.type === Packet.TYPE.TXT)
        for (const data of zone.txt) response.answers.push(Packet.createResourceFromQuestion(question, { ttl: 60, data }));
      void send(response);
    },
  });
  await server.listen({ udp: { port, address: "127.0.0.1" }, tcp: { port, address: "127.0.0.1" } });
  return { zones, close: () => server.close() };
}

describe("domain verification through real DNS", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let dns: Awaited<ReturnType<typeof startWorldDns>>;

  beforeAll(async () => {
    dns = await startWorldDns(system.ports.dns);
  });
  afterAll(async () => {
    await dns?.close();
  });

  it("when the DNS gets the MX and TXT records, then a domain goes pending -> verified and can then be assigned; one record is partial, none failed", async () => {
    const owner = await registerUser(api, "dnsowner");
    const token = owner.token;
    const org = await api<{ id: string }>("POST", "/orgs", { token, body: { name: "DNS Org" } });
    const team = await api<{ id: string }>("POST", `/orgs/${org.body.id}/teams`, { token, body: { name: "Mail" } });
    const add = async () => {
      const res = await api<Domain>("POST", `/orgs/${org.body.id}/domains`, {
        token,
        body: { domain_name: `${randomBytes(4).toString("hex")}.dns-e2e.test` },
      });
      expect(res.body).toMatchObject({ status: "pending_verification", mx_verified: false, txt_verified: false });
      expect(res.body.verification_record).toMatch(/^burnbox-verify=[0-9a-f]+$/);
      return res.body;
    };
    const verify = (d: Domain) => api<Domain>("POST", `/orgs/${org.body.id}/domains/${d.id}/verify`, { token });
    const full = await add();
    const partial = await add();
    const none = await add();

    // not verified yet: it cannot be assigned
    const early = await api("POST", `/orgs/${org.body.id}/teams/${team.body.id}/domains`, { token, body: { domain_id: full.id } });
    expect(early).toMatchObject({ status: 409, body: { code: "conflict" } });

    dns.zones.set(full.domain_name, { mx: [`${full.mx_target}.`], txt: [full.verification_record] });
    dns.zones.set(partial.domain_name, { mx: [], txt: [partial.verification_record] });
    expect((await verify(full)).body).toMatchObject({ status: "verified", mx_verified: true, txt_verified: true });
    expect((await verify(partial)).body).toMatchObject({ status: "partially_verified", mx_verified: false, txt_verified: true });
    expect((await verify(none)).body).toMatchObject({ status: "failed" });

    const assigned = await api("POST", `/orgs/${org.body.id}/teams/${team.body.id}/domains`, { token, body: { domain_id: full.id } });
    expect(assigned.status).toBe(201);
    const history = await api<{ data: Array<{ trigger: string; mx_result: boolean; txt_result: boolean }>; total: number }>(
      "GET",
      `/orgs/${org.body.id}/domains/${partial.id}/verification-history`,
      { token },
    );
    expect(history.body).toMatchObject({ total: 1, data: [{ trigger: "manual", mx_result: false, txt_result: true }] });
    // another user may neither check nor read it
    const outsider = await registerUser(api, "dnsoutsider");
    expect((await api("POST", `/orgs/${org.body.id}/domains/${none.id}/verify`, { token: outsider.token })).status).toBe(404);
    expect((await api("GET", `/orgs/${org.body.id}/domains/${none.id}/verification-history`, { token: outsider.token })).status).toBe(404);
  });

  it("when domains are verified and deleted in bulk, then each result or skip is listed; another org's ids count as unknown", async () => {
    const owner = await registerUser(api, "bulkdns");
    const token = owner.token;
    const org = await api<{ id: string }>("POST", "/orgs", { token, body: { name: "Bulk DNS" } });
    const other = await api<{ id: string }>("POST", "/orgs", {
      token: (await registerUser(api, "bulkother")).token,
      body: { name: "Other" },
    });
    const add = async () =>
      (
        await api<Domain>("POST", `/orgs/${org.body.id}/domains`, {
          token,
          body: { domain_name: `${randomBytes(4).toString("hex")}.dns-e2e.test` },
        })
      ).body;
    const [a, b] = [await add(), await add()];
    dns.zones.set(a.domain_name, { mx: [a.mx_target], txt: [a.verification_record] });
    const unknown = randomUUID();
    const verified = await api<{ results: Domain[]; failed: Array<{ domain_id: string; reason: string }> }>(
      "POST",
      `/orgs/${org.body.id}/domains/bulk-verify`,
      { token, body: { domain_ids: [a.id, b.id, unknown] } },
    );
    expect(verified.status).toBe(200);
    expect(verified.body.results.map((d) => [d.id, d.status])).toEqual([
      [a.id, "verified"],
      [b.id, "failed"],
    ]);
    expect(verified.body.failed).toEqual([{ domain_id: unknown, reason: "not_found" }]);
    expect((await api("POST", `/orgs/${other.body.id}/domains/bulk-delete`, { token, body: { domain_ids: [a.id] } })).status).toBe(404);
    const deleted = await api("POST", `/orgs/${org.body.id}/domains/bulk-delete`, { token, body: { domain_ids: [a.id, b.id, unknown] } });
    expect(deleted).toMatchObject({ status: 200, body: { deleted: 2, skipped: [{ domain_id: unknown, reason: "not_found" }] } });
    expect((await api<{ total: number }>("GET", `/orgs/${org.body.id}/domains`, { token })).body.total).toBe(0);
  });
});
