import dns2 from "dns2";

const { Packet } = dns2;

/** The DNS the system asks (`dns.servers`), run by a test on the system's DNS port: A and AAAA from `zones`, the rest NXDOMAIN. */
export async function testDns(port: number): Promise<{ zones: Map<string, { a?: string[]; aaaa?: string[] }>; close(): Promise<void> }> {
  const zones = new Map<string, { a?: string[]; aaaa?: string[] }>();
  const server = dns2.createServer({
    udp: true,
    tcp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const question = request.questions[0];
      const zone = question ? zones.get(question.name.toLowerCase()) : undefined;
      if (!question || !zone) response.header.rcode = 3;
      else {
        const records = question.type === Packet.TYPE.A ? zone.a : question.type === Packet.TYPE.AAAA ? zone.aaaa : undefined;
        for (const address of records ?? []) response.answers.push(Packet.createResourceFromQuestion(question, { ttl: 1, address }));
      }
      void send(response);
    },
  });
  await server.listen({ udp: { port, address: "127.0.0.1" }, tcp: { port, address: "127.0.0.1" } });
  return { zones, close: () => server.close() };
}
