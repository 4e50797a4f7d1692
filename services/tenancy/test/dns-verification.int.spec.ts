import { randomUUID } from "node:crypto";
import { makeActor } from "@burnbox/test-kit";
import { startDnsServer } from "./dns-server";
import { startTenancy, type Tenancy } from "./support";

const MX = "mx.int.burnbox.test";

interface Domain {
  id: string;
  domain_name: string;
  status: string;
  mx_verified: boolean;
  txt_verified: boolean;
  spf_verified: boolean;
  verification_record: string;
  mx_target: string;
  dns_last_checked_at: string | null;
}

describe("domain verification through DNS", () => {
  let t: Tenancy;
  let dns: Awaited<ReturnType<typeof startDnsServer>>;
  const owner = makeActor();
  let orgId: string;

  beforeAll(async () => {
    dns = await startDnsServer();
    t = await startTenancy({
      dns: { servers: [dns.address], timeout_ms: 1000 },
      smtp: { hostname: MX },
      workers: { domain_verify_interval: "1h" },
    });
    orgId = (await t.call<{ id: string }>("POST", "/orgs", { actor: owner, body: { name: "DNS org" } })).body.id;
  });
  afterAll(async () => {
    await t?.stop();
    await dns?.close();
  });

  const addDomain = async () => {
    const name = `${randomUUID().slice(0, 8)}.example-dns.test`;
    const res = await t.call<Domain>("POST", `/orgs/${orgId}/domains`, { actor: owner, body: { domain_name: name } });
    expect(res.body).toMatchObject({ status: "pending_verification", mx_target: MX, dns_last_checked_at: null });
    return res.body;
  };
  const verify = (d: Domain) => t.call<Domain>("POST", `/orgs/${orgId}/domains/${d.id}/verify`, { actor: owner });

  it("when MX and TXT match, then the domain is verified and domain.verified is emitted; one match is partial, none failed", async () => {
    const full = await addDomain();
    const partial = await addDomain();
    const none = await addDomain();
    dns.zones.set(full.domain_name, { mx: [`${MX}.`], txt: [full.verification_record, `v=spf1 a:${MX} -all`] });
    dns.zones.set(partial.domain_name, { mx: [MX], txt: ["unrelated"] });
    expect((await verify(full)).body).toMatchObject({ status: "verified", mx_verified: true, txt_verified: true, spf_verified: true });
    expect((await verify(partial)).body).toMatchObject({ status: "partially_verified", mx_verified: true, txt_verified: false });
    expect((await verify(none)).body).toMatchObject({ status: "failed", mx_verified: false, txt_verified: false });
    const { rows } = await t.infra.pool!.query<{ domain_id: string }>(
      `SELECT payload->'data'->>'domain_id' AS domain_id FROM outbox_events WHERE payload->>'type' = 'domain.verified' AND payload->>'org_id' = $1`,
      [orgId],
    );
    expect(rows.map((r) => r.domain_id)).toEqual([full.id]);
  });

  it("when the DNS fails, then the flags stay and the history records the error; the worker later verifies the domain", async () => {
    const d = await addDomain();
    dns.zones.set(d.domain_name, { mx: [MX], txt: [] });
    expect((await verify(d)).body.status).toBe("partially_verified");
    dns.zones.set(d.domain_name, "servfail");
    expect((await verify(d)).body).toMatchObject({ status: "partially_verified", mx_verified: true });
    dns.zones.set(d.domain_name, { mx: [MX], txt: [d.verification_record] });
    // the worker re-checks domains not checked within the interval: make this one due
    await t.infra.pool!.query(`UPDATE domains SET dns_last_checked_at = now() - interval '2 hours' WHERE id = $1`, [d.id]);
    await t.service.workers.domainVerify.runNow();
    const after = await t.call<Domain>("GET", `/orgs/${orgId}/domains/${d.id}`, { actor: owner });
    expect(after.body.status).toBe("verified");
    const history = await t.call<{
      data: Array<{ trigger: string; mx_result: boolean | null; txt_result: boolean | null; error: string | null }>;
    }>("GET", `/orgs/${orgId}/domains/${d.id}/verification-history`, { actor: owner });
    expect(history.body.data.map((h) => [h.trigger, h.mx_result, h.txt_result, h.error === null])).toEqual([
      ["worker", true, true, true],
      ["manual", null, null, false],
      ["manual", true, false, true],
    ]);
  });
});
