import { createPublicKey, randomBytes, randomUUID } from "node:crypto";
import { RpcName, type DkimRecord } from "@burnbox/contracts";
import { rpcRequest } from "@burnbox/service-kit/messaging";
import { SecretBox } from "@burnbox/service-kit/security";
import { makeActor } from "@burnbox/test-kit";
import { startDnsServer } from "./dns-server";
import { startTenancy, type Tenancy } from "./support";

const MX = "mx.dkim.burnbox.test";
const KEY = randomBytes(32).toString("hex");

interface Domain {
  id: string;
  domain_name: string;
  status: string;
  dkim_verified: boolean;
  dkim_record: DkimRecord | null;
  verification_record: string;
}

const publicKeyOf = (record: DkimRecord): string => /(?:^|;)\s*p=([^;]+)/.exec(record.value)?.[1]?.trim() ?? "";

describe("DKIM keys per domain (extensions 10)", () => {
  let t: Tenancy;
  let dns: Awaited<ReturnType<typeof startDnsServer>>;
  const owner = makeActor();
  let orgId: string;

  beforeAll(async () => {
    dns = await startDnsServer();
    t = await startTenancy({
      encryption: { key: KEY },
      dns: { servers: [dns.address], timeout_ms: 1000 },
      smtp: { hostname: MX },
      workers: { domain_verify_interval: "1h" },
    });
    orgId = (await t.call<{ id: string }>("POST", "/orgs", { actor: owner, body: { name: "DKIM org" } })).body.id;
  });
  afterAll(async () => {
    await t?.stop();
    await dns?.close();
  });

  const addDomain = async () => {
    const res = await t.call<Domain>("POST", `/orgs/${orgId}/domains`, {
      actor: owner,
      body: { domain_name: `${randomUUID().slice(0, 8)}.dkim-example.test` },
    });
    expect(res.status).toBe(201);
    return res.body;
  };
  const getDomain = async (id: string) => (await t.call<Domain>("GET", `/orgs/${orgId}/domains/${id}`, { actor: owner })).body;
  const sealedOf = async (id: string) =>
    (await t.infra.pool!.query<{ sealed: string | null }>(`SELECT dkim_private_key_sealed AS sealed FROM domains WHERE id = $1`, [id]))
      .rows[0]?.sealed ?? null;

  it("when a domain is created, then it has a 2048-bit RSA key whose TXT record GET shows, and its private half is only stored sealed", async () => {
    const created = await addDomain();
    const d = await getDomain(created.id);
    expect(d.dkim_record).toMatchObject({ selector: "burnbox", name: `burnbox._domainkey.${d.domain_name}`, type: "TXT" });
    expect(d.dkim_record!.value).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/]+=*$/);
    const key = createPublicKey({ key: Buffer.from(publicKeyOf(d.dkim_record!), "base64"), format: "der", type: "spki" });
    expect(key.asymmetricKeyType).toBe("rsa");
    expect(key.asymmetricKeyDetails?.modulusLength).toBe(2048);
    const sealed = await sealedOf(d.id);
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain("PRIVATE KEY");
    // nothing of the private key in the answer, nor in the logs
    const pem = new SecretBox(KEY).open(sealed!);
    const secretLine = pem.split("\n")[1]!;
    expect(JSON.stringify(d)).not.toContain(sealed!);
    expect(JSON.stringify(d)).not.toContain(secretLine);
    expect(t.logs.text()).not.toContain(secretLine);
  });

  it("when the domain is verified, then the check reports whether the DKIM record is published (informational, like SPF)", async () => {
    const d = await addDomain();
    const verify = async () => (await t.call<Domain>("POST", `/orgs/${orgId}/domains/${d.id}/verify`, { actor: owner })).body;
    dns.zones.set(d.domain_name, { mx: [MX], txt: [d.verification_record] });
    expect(await verify()).toMatchObject({ status: "verified", dkim_verified: false });
    // another key at the name is not this one
    dns.zones.set(d.dkim_record!.name, { txt: ["v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAwrong"] });
    expect(await verify()).toMatchObject({ status: "verified", dkim_verified: false });
    // the record as shown (longer than 255 bytes: the DNS sends it as several strings)
    dns.zones.set(d.dkim_record!.name, { txt: [d.dkim_record!.value] });
    expect(await verify()).toMatchObject({ status: "verified", dkim_verified: true });
    dns.zones.set(d.dkim_record!.name, "servfail");
    expect(await verify()).toMatchObject({ dkim_verified: true });
    const history = await t.call<{ data: Array<{ dkim_result: boolean | null; error: string | null }> }>(
      "GET",
      `/orgs/${orgId}/domains/${d.id}/verification-history`,
      { actor: owner },
    );
    expect(history.body.data.map((h) => [h.dkim_result, h.error === null])).toEqual([
      [null, false],
      [true, true],
      [false, true],
      [false, true],
    ]);
  });

  it("when the inbox service asks for a domain's signing key, then it gets it sealed, and the key matches the published record", async () => {
    const d = await getDomain((await addDomain()).id);
    const { key } = await rpcRequest(t.infra.nc, t.ns, RpcName.dkimKey, { domain_name: d.domain_name.toUpperCase() });
    expect(key).toMatchObject({ domain_name: d.domain_name, selector: "burnbox" });
    expect(key!.private_key_sealed).toMatch(/^v1\./);
    const pem = new SecretBox(KEY).open(key!.private_key_sealed);
    const spki = createPublicKey(pem).export({ type: "spki", format: "der" }).toString("base64");
    expect(spki).toBe(publicKeyOf(d.dkim_record!));
    expect((await rpcRequest(t.infra.nc, t.ns, RpcName.dkimKey, { domain_name: "unknown.dkim-example.test" })).key).toBeNull();
  });

  it("when domains have no key (older than the feature, or made by the previous release), then the backfill gives each one and keeps the others", async () => {
    const kept = await getDomain((await addDomain()).id);
    // a domain as the previous release writes it: without the DKIM columns
    const oldId = randomUUID();
    await t.infra.pool!.query(
      `INSERT INTO domains (id, org_id, domain_name, status, verification_record, settings, updated_at)
       VALUES ($1, $2, $3, 'pending_verification', 'burnbox-verify=old', '{}', now())`,
      [oldId, orgId, `${randomUUID().slice(0, 8)}.old-dkim-example.test`],
    );
    expect((await getDomain(oldId)).dkim_record).toBeNull();
    await t.service.workers.dkimKeys.runNow();
    const backfilled = await getDomain(oldId);
    expect(backfilled.dkim_record).toMatchObject({ selector: "burnbox", name: `burnbox._domainkey.${backfilled.domain_name}` });
    expect(await sealedOf(oldId)).toMatch(/^v1\./);
    expect((await getDomain(kept.id)).dkim_record).toEqual(kept.dkim_record);
    const { rows } = await t.infra.pool!.query<{ n: number }>(`SELECT count(*)::int AS n FROM domains WHERE dkim_selector IS NULL`);
    expect(rows[0]!.n).toBe(0);
  });
});
