import dns2 from "dns2";

const { Packet } = dns2;

/**
 * One name's records. `txt` records longer than 255 bytes are sent as several character strings
 * (a DKIM key), `ttl` is every record's (1 s unless given); `fail` makes the name misbehave:
 * `servfail` answers SERVFAIL, `silent` never answers.
 */
export interface TestZone {
  a?: string[];
  aaaa?: string[];
  txt?: string[];
  /** MX exchanges (priority 10 each) */
  mx?: string[];
  ttl?: number;
  fail?: "servfail" | "silent";
}

/** A TXT record's text as character strings of at most 255 bytes. */
const characterStrings = (text: string): string[] => text.match(/[\s\S]{1,255}/g) ?? [""];

/**
 * The DNS the system asks (`dns.servers`), run by a test on the system's DNS port: A, AAAA, MX and TXT
 * from `zones`, the rest NXDOMAIN (a known name without the asked type: no records). A negative
 * answer carries a SOA whose TTL (`negativeTtl`, 1 s unless given) says how long it may be kept.
 */
export async function testDns(
  port: number,
  opts: { negativeTtl?: number } = {},
): Promise<{ zones: Map<string, TestZone>; close(): Promise<void> }> {
  const negativeTtl = opts.negativeTtl ?? 1;
  const soa = (question: { name: string }) => ({
    name: question.name.split(".").slice(-1)[0] ?? "test",
    type: Packet.TYPE.SOA,
    class: Packet.CLASS.IN,
    ttl: negativeTtl,
    primary: "ns.e2e.test",
    admin: "hostmaster.e2e.test",
    serial: 1,
    refresh: 3600,
    retry: 600,
    expiration: 86400,
    minimum: negativeTtl,
  });
  const zones = new Map<string, TestZone>();
  const server = dns2.createServer({
    udp: true,
    tcp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const question = request.questions[0];
      const zone = question ? zones.get(question.name.toLowerCase()) : undefined;
      if (zone?.fail === "silent") return;
      if (zone?.fail === "servfail") response.header.rcode = 2;
      else if (!question || !zone) response.header.rcode = 3;
      else {
        const ttl = zone.ttl ?? 1;
        if (question.type === Packet.TYPE.TXT) {
          for (const text of zone.txt ?? [])
            response.answers.push(Packet.createResourceFromQuestion(question, { ttl, data: characterStrings(text) }));
        } else if (question.type === Packet.TYPE.MX) {
          for (const exchange of zone.mx ?? [])
            response.answers.push(Packet.createResourceFromQuestion(question, { ttl, exchange, priority: 10 }));
        } else {
          const records = question.type === Packet.TYPE.A ? zone.a : question.type === Packet.TYPE.AAAA ? zone.aaaa : undefined;
          for (const address of records ?? []) response.answers.push(Packet.createResourceFromQuestion(question, { ttl, address }));
        }
      }
      if (question && (response.header.rcode === 3 || (response.header.rcode === 0 && response.answers.length === 0))) {
        response.authorities.push(soa(question) as unknown as (typeof response.authorities)[number]);
      }
      void send(response);
    },
  });
  await server.listen({ udp: { port, address: "127.0.0.1" }, tcp: { port, address: "127.0.0.1" } });
  return { zones, close: () => server.close() };
}
