import dns2 from "dns2";

const { Packet } = dns2;
/** Response codes (RFC 1035 4.1.1); the package's typings do not list its RCODE table. */
const SERVFAIL = 2;
const NXDOMAIN = 3;

/** What the test DNS answers for one name: records, or a failure. */
export type Zone = { mx?: string[]; txt?: string[]; a?: string[]; aaaa?: string[] } | "servfail";

/** A DNS server of the test's own on 127.0.0.1 (UDP): names not in the zone are NXDOMAIN. */
export async function startDnsServer(): Promise<{ address: string; zones: Map<string, Zone>; close(): Promise<void> }> {
  const zones = new Map<string, Zone>();
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const question = request.questions[0];
      const zone = question ? zones.get(question.name.toLowerCase()) : undefined;
      if (!question || zone === undefined) {
        response.header.rcode = NXDOMAIN;
      } else if (zone === "servfail") {
        response.header.rcode = SERVFAIL;
      } else if (question.type === Packet.TYPE.MX) {
        for (const exchange of zone.mx ?? []) {
          response.answers.push(Packet.createResourceFromQuestion(question, { ttl: 60, exchange, priority: 10 }));
        }
      } else if (question.type === Packet.TYPE.TXT) {
        for (const text of zone.txt ?? []) {
          // a record longer than 255 bytes (a DKIM key) goes as several character strings
          const data = text.match(/[\s\S]{1,255}/g) ?? [""];
          response.answers.push(Packet.createResourceFromQuestion(question, { ttl: 60, data }));
        }
      } else if (question.type === Packet.TYPE.A || question.type === Packet.TYPE.AAAA) {
        // addresses: the webhook dispatcher's dispatch-time check resolves through this server too
        for (const address of (question.type === Packet.TYPE.A ? zone.a : zone.aaaa) ?? []) {
          response.answers.push(Packet.createResourceFromQuestion(question, { ttl: 60, address }));
        }
      }
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: "127.0.0.1" } });
  return { address: `127.0.0.1:${addresses.udp?.port ?? 0}`, zones, close: () => server.close() };
}
