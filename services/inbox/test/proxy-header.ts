import { isIPv4 } from "node:net";

/** The 12 bytes every PROXY protocol version 2 header starts with. */
export const V2_SIGNATURE = Buffer.from("0d0a0d0a000d0a515549540a", "hex");

/** A version 1 header as a load balancer writes it: `PROXY TCP4 <client> <destination> <client port> <destination port>`. */
export function proxyV1(client: string, clientPort: number, destination = "192.0.2.25", destinationPort = 25): Buffer {
  const protocol = isIPv4(client) ? "TCP4" : "TCP6";
  return Buffer.from(`PROXY ${protocol} ${client} ${destination} ${clientPort} ${destinationPort}\r\n`, "latin1");
}

/** The 16 bytes of an IPv6 address written in full or with `::`. */
function ipv6Bytes(address: string): Buffer {
  const [head = "", tail] = address.split("::");
  const groups = (s: string) => (s ? s.split(":") : []);
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  const out = Buffer.alloc(16);
  all.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), 2 * i));
  return out;
}

/**
 * A version 2 header (binary): PROXY over TCP from `client` (IPv4 or IPv6, the destination of the
 * same family), with `tlvs` after the addresses as AWS's and Azure's balancers add them; `local`
 * makes it a LOCAL header (a health check), addresses and all.
 */
export function proxyV2(client: string, clientPort: number, opts: { local?: boolean; tlvs?: Buffer; destination?: string } = {}): Buffer {
  const v4 = isIPv4(client);
  const destination = opts.destination ?? (v4 ? "192.0.2.25" : "2001:db8::25");
  const addresses = v4
    ? Buffer.concat([Buffer.from(client.split(".").map(Number)), Buffer.from(destination.split(".").map(Number)), Buffer.alloc(4)])
    : Buffer.concat([ipv6Bytes(client), ipv6Bytes(destination), Buffer.alloc(4)]);
  addresses.writeUInt16BE(clientPort, addresses.length - 4);
  addresses.writeUInt16BE(25, addresses.length - 2);
  const body = Buffer.concat([addresses, opts.tlvs ?? Buffer.alloc(0)]);
  const fixed = Buffer.alloc(4);
  fixed[0] = opts.local ? 0x20 : 0x21;
  fixed[1] = v4 ? 0x11 : 0x21;
  fixed.writeUInt16BE(body.length, 2);
  return Buffer.concat([V2_SIGNATURE, fixed, body]);
}
