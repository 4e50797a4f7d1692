import { generateKeyPairSync } from "node:crypto";
import type { AddressInfo } from "node:net";
import dns2 from "dns2";
import nodemailer from "nodemailer";
import { createLogger, pipeline } from "@burnbox/service-kit/runtime";
import { mailAuthentication, type MailAuthenticationSettings } from "./mail-authentication";

const { Packet } = dns2;

type Zone = { txt?: string[]; fail?: "servfail" | "silent" };

/** A DNS server on 127.0.0.1 answering TXT questions from `zones` (DKIM keys split into 255-byte strings). */
async function dnsServer(zones: Map<string, Zone>): Promise<{ port: number; close(): Promise<void> }> {
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const q = request.questions[0]!;
      const response = Packet.createResponseFromRequest(request);
      const zone = zones.get(q.name.toLowerCase());
      if (zone?.fail === "silent") return;
      if (zone?.fail === "servfail") response.header.rcode = 2;
      else if (!zone) response.header.rcode = 3;
      else if (q.type === Packet.TYPE.TXT) {
        for (const text of zone.txt ?? [])
          response.answers.push(Packet.createResourceFromQuestion(q, { ttl: 60, data: text.match(/.{1,255}/g) ?? [] }));
      }
      void send(response);
    },
  });
  const listening = await server.listen({ udp: { port: 0, address: "127.0.0.1" } });
  return { port: (listening.udp as AddressInfo).port, close: () => server.close() };
}

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const DKIM_RECORD = `v=DKIM1; k=rsa; p=${publicKey.export({ type: "spki", format: "der" }).toString("base64")}`;

/** How many verdicts `burnbox_mail_auth_verdicts_total` has counted for `check` and `result`. */
async function verdictCount(check: string, result: string): Promise<number> {
  const values = (await pipeline.mailAuthVerdicts.get()).values;
  return values.find((v) => v.labels.check === check && v.labels.result === result)?.value ?? 0;
}

async function signedMail(domain: string, o: { sign?: boolean; key?: string } = {}): Promise<Buffer> {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" });
  const info = await composer.sendMail({
    from: `orders@${domain}`,
    to: "someone@inbox.test",
    subject: "Your order",
    text: "Shipped.",
    ...(o.sign === false
      ? {}
      : {
          dkim: {
            domainName: domain,
            keySelector: "s1",
            privateKey: o.key ?? privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
          },
        }),
  });
  return info.message as Buffer;
}

describe("mailAuthentication", () => {
  const zones = new Map<string, Zone>([
    ["good.test", { txt: ["v=spf1 ip4:192.0.2.7 -all"] }],
    ["s1._domainkey.good.test", { txt: [DKIM_RECORD] }],
    ["_dmarc.good.test", { txt: ["v=DMARC1; p=quarantine"] }],
    ["broken.test", { fail: "servfail" }],
    ["s1._domainkey.broken.test", { fail: "servfail" }],
    ["_dmarc.broken.test", { fail: "servfail" }],
    ["silent.test", { fail: "silent" }],
    ["s1._domainkey.silent.test", { fail: "silent" }],
    ["_dmarc.silent.test", { fail: "silent" }],
  ]);
  let dns: Awaited<ReturnType<typeof dnsServer>>;
  const logger = createLogger({ service: "test", level: "silent" });
  const settings = (over: Partial<MailAuthenticationSettings> = {}): MailAuthenticationSettings => ({
    enabled: true,
    budgetMs: 2_000,
    maxLookups: 40,
    cacheEntries: 100,
    dns: { servers: [`127.0.0.1:${dns.port}`], timeout_ms: 60_000 },
    mta: "mx.burnbox.test",
    ...over,
  });

  beforeAll(async () => {
    dns = await dnsServer(zones);
  });
  afterAll(async () => {
    await dns.close();
  });

  it("when signed mail comes from an address its domain's SPF allows, then SPF, DKIM and DMARC pass with the published policy", async () => {
    const check = mailAuthentication(settings(), logger);
    const verdicts = await check.check(await signedMail("good.test"), {
      ip: "::ffff:192.0.2.7",
      helo: "mta.good.test",
      sender: "bounce@good.test",
    });
    expect(verdicts).toEqual({
      spf: { result: "pass", domain: "good.test" },
      dkim: [{ result: "pass", domain: "good.test", selector: "s1" }],
      dmarc: { result: "pass", policy: "quarantine", domain: "good.test" },
      arc: { result: "none" },
    });
  });

  it("when signed mail is altered, then a changed body is neutral (body hash mismatch) and a changed header fails", async () => {
    const check = mailAuthentication(settings(), logger);
    const origin = { ip: "192.0.2.7", helo: "mta.good.test", sender: "bounce@good.test" };
    const raw = (await signedMail("good.test")).toString("latin1");
    const body = await check.check(Buffer.from(raw.replace("Shipped.", "Cancelled."), "latin1"), origin);
    const header = await check.check(Buffer.from(raw.replace("Subject: Your order", "Subject: Your refund"), "latin1"), origin);
    expect(body?.dkim).toEqual([{ result: "neutral", domain: "good.test", selector: "s1" }]);
    expect(header?.dkim).toEqual([{ result: "fail", domain: "good.test", selector: "s1" }]);
  });

  it("when unsigned mail comes from an address SPF does not allow, then SPF and DMARC fail and there is no DKIM entry", async () => {
    const check = mailAuthentication(settings(), logger);
    const verdicts = await check.check(await signedMail("good.test", { sign: false }), {
      ip: "198.51.100.1",
      helo: "x.example",
      sender: "bounce@good.test",
    });
    expect(verdicts).toMatchObject({ spf: { result: "fail" }, dkim: [], dmarc: { result: "fail", policy: "quarantine" } });
  });

  it("when the DNS answers SERVFAIL, then every verdict that needed it is temperror", async () => {
    const check = mailAuthentication(settings(), logger);
    const verdicts = await check.check(await signedMail("broken.test"), {
      ip: "192.0.2.7",
      helo: "mta.broken.test",
      sender: "bounce@broken.test",
    });
    expect(verdicts).toEqual({
      spf: { result: "temperror", domain: "broken.test" },
      dkim: [{ result: "temperror", domain: "broken.test", selector: "s1" }],
      dmarc: { result: "temperror", policy: "none", domain: "broken.test" },
      arc: { result: "none" },
    });
  });

  it("when the DNS does not answer, then the verdicts are temperror once the budget is spent, however long a query may wait", async () => {
    const check = mailAuthentication(settings({ budgetMs: 400 }), logger);
    const verdicts = await check.check(await signedMail("silent.test"), { ip: "192.0.2.7", helo: null, sender: "bounce@silent.test" });
    expect(verdicts).toMatchObject({
      spf: { result: "temperror", domain: "silent.test" },
      dkim: [{ result: "temperror", domain: "silent.test", selector: "s1" }],
      dmarc: { result: "temperror", domain: "silent.test" },
    });
  });

  it("when a domain publishes a new key under the same selector, then once the old record's TTL has passed mail signed with the new key passes and mail signed with the old one fails", async () => {
    let clock = Date.now();
    const check = mailAuthentication(settings(), logger, () => clock);
    const origin = { ip: "192.0.2.7", helo: "mta.rotating.test", sender: "bounce@rotating.test" };
    const next = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const nextKey = next.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    zones.set("rotating.test", { txt: ["v=spf1 ip4:192.0.2.7 -all"] });
    zones.set("s1._domainkey.rotating.test", { txt: [DKIM_RECORD] });
    try {
      // the first key, twice: the second check uses the record (and the key parsed from it) again
      for (let i = 0; i < 2; i++) expect((await check.check(await signedMail("rotating.test"), origin))?.dkim[0]?.result).toBe("pass");
      zones.set("s1._domainkey.rotating.test", {
        txt: [`v=DKIM1; k=rsa; p=${next.publicKey.export({ type: "spki", format: "der" }).toString("base64")}`],
      });
      // within the record's TTL (60 s) the first key still answers
      expect((await check.check(await signedMail("rotating.test"), origin))?.dkim[0]?.result).toBe("pass");
      clock += 61_000;
      expect((await check.check(await signedMail("rotating.test", { key: nextKey }), origin))?.dkim[0]?.result).toBe("pass");
      expect((await check.check(await signedMail("rotating.test"), origin))?.dkim[0]?.result).toBe("fail");
    } finally {
      zones.delete("rotating.test");
      zones.delete("s1._domainkey.rotating.test");
    }
  });

  it("when mail is checked, then each verdict is counted by check and result (DKIM once per signature, none when unsigned)", async () => {
    const check = mailAuthentication(settings(), logger);
    const origin = { ip: "192.0.2.7", helo: "mta.good.test", sender: "bounce@good.test" };
    const before = {
      spfPass: await verdictCount("spf", "pass"),
      dkimPass: await verdictCount("dkim", "pass"),
      dkimNone: await verdictCount("dkim", "none"),
      dmarcPass: await verdictCount("dmarc", "pass"),
      arcNone: await verdictCount("arc", "none"),
      spfTemperror: await verdictCount("spf", "temperror"),
      dkimTemperror: await verdictCount("dkim", "temperror"),
    };
    await check.check(await signedMail("good.test"), origin);
    await check.check(await signedMail("good.test", { sign: false }), origin);
    await check.check(await signedMail("broken.test"), { ip: "192.0.2.7", helo: null, sender: "bounce@broken.test" });
    expect(await verdictCount("spf", "pass")).toBe(before.spfPass + 2);
    expect(await verdictCount("dkim", "pass")).toBe(before.dkimPass + 1);
    expect(await verdictCount("dkim", "none")).toBe(before.dkimNone + 1);
    expect(await verdictCount("dmarc", "pass")).toBe(before.dmarcPass + 2);
    expect(await verdictCount("arc", "none")).toBe(before.arcNone + 3);
    expect(await verdictCount("spf", "temperror")).toBe(before.spfTemperror + 1);
    expect(await verdictCount("dkim", "temperror")).toBe(before.dkimTemperror + 1);
  });

  it("when the checks are turned off, then nothing is looked up and the verdicts are null", async () => {
    const check = mailAuthentication(settings({ enabled: false }), logger);
    expect(await check.check(await signedMail("good.test"), { ip: "192.0.2.7", helo: null, sender: "" })).toBeNull();
  });
});
