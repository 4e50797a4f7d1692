import { BlockList, isIP, SocketAddress, type Socket } from "node:net";
import type { SMTPServer } from "smtp-server";
import { pipeline, type Logger } from "@burnbox/service-kit/runtime";

/**
 * The PROXY protocol (HAProxy's proxy-protocol.txt, versions 1 and 2) in front of the SMTP
 * intake: a TCP load balancer that does not keep the client's address (most cloud ones) opens
 * each connection with a header naming the client, and the intake then treats the connection as
 * the client's (SPF, DMARC, the per-IP limits, the transcripts, the logs).
 *
 * smtp-server's own `useProxy` is not enough here: in 3.21 it reads version 1 only (AWS's NLB and
 * Azure's Private Link send version 2) and trusts a list of exact addresses, not ranges (a load
 * balancer's nodes come from a subnet). So the header is read here, and the connection is handed
 * to smtp-server with the client's address as if it had come from there.
 */

/** The 12 bytes every version 2 header starts with. */
const V2_SIGNATURE = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a]);
/** How every version 1 header starts. */
const V1_PREFIX = Buffer.from("PROXY ", "latin1");
/** Version 1's longest line, CRLF included (section 2.1). */
export const V1_MAX_BYTES = 107;
/**
 * The most version 2 bytes held for one header: the 16 fixed bytes, the addresses (216 at most,
 * for unix sockets) and the TLVs a load balancer adds (AWS: its VPC endpoint id; Azure: the
 * link id), with room to spare. A longer one is refused.
 */
export const V2_MAX_BYTES = 16 + 2048;

/** Where a connection came from, by its header; `null`: the header names no client (LOCAL, UNKNOWN), the peer stands. */
export type ProxySource = { address: string; port: number } | null;

export type ProxyHeader =
  | { state: "incomplete" }
  | { state: "invalid"; reason: string }
  | { state: "parsed"; version: 1 | 2; /** The header's bytes; what follows is SMTP. */ length: number; source: ProxySource };

const INCOMPLETE: ProxyHeader = { state: "incomplete" };
const invalid = (reason: string): ProxyHeader => ({ state: "invalid", reason });

/** Whether `buf` and `prefix` agree over the shorter of the two. */
function startsLike(buf: Buffer, prefix: Buffer): boolean {
  const n = Math.min(buf.length, prefix.length);
  return buf.subarray(0, n).equals(prefix.subarray(0, n));
}

const PORT = /^(0|[1-9][0-9]{0,4})$/;

/** `PROXY TCP4|TCP6 <src> <dst> <srcport> <dstport>\r\n`, or `PROXY UNKNOWN ...\r\n`. */
function parseV1(buf: Buffer): ProxyHeader {
  const lf = buf.indexOf(0x0a);
  if (lf < 0) return buf.length >= V1_MAX_BYTES ? invalid("version 1 header longer than 107 bytes") : INCOMPLETE;
  if (lf + 1 > V1_MAX_BYTES) return invalid("version 1 header longer than 107 bytes");
  if (buf[lf - 1] !== 0x0d) return invalid("version 1 header not ended by CRLF");
  const parts = buf.toString("latin1", 0, lf - 1).split(" ");
  // the proxy does not know the client's address (its own health check, a foreign protocol): the peer stands
  if (parts[1] === "UNKNOWN") return { state: "parsed", version: 1, length: lf + 1, source: null };
  if (parts.length !== 6) return invalid("version 1 header without its five fields");
  const [, protocol, src = "", dst = "", srcPort = "", dstPort = ""] = parts;
  const family = protocol === "TCP4" ? 4 : protocol === "TCP6" ? 6 : 0;
  if (!family) return invalid(`version 1 header with an unknown protocol ${JSON.stringify(protocol?.slice(0, 16))}`);
  if (isIP(src) !== family || isIP(dst) !== family) return invalid(`version 1 header whose addresses are not ${protocol}`);
  if (!PORT.test(srcPort) || !PORT.test(dstPort) || Number(srcPort) > 65535 || Number(dstPort) > 65535)
    return invalid("version 1 header with a bad port");
  return { state: "parsed", version: 1, length: lf + 1, source: { address: canonical(src, family), port: Number(srcPort) } };
}

/** The 16-byte header (signature, version and command, family and transport, length), then the addresses and TLVs. */
function parseV2(buf: Buffer): ProxyHeader {
  if (buf.length < 16) return INCOMPLETE;
  const versionCommand = buf[12] as number;
  if (versionCommand >> 4 !== 2) return invalid(`version 2 signature with version ${versionCommand >> 4}`);
  const command = versionCommand & 0x0f;
  if (command > 1) return invalid(`version 2 header with an unknown command ${command}`);
  const length = 16 + buf.readUInt16BE(14);
  if (length > V2_MAX_BYTES) return invalid(`version 2 header of ${length} bytes (at most ${V2_MAX_BYTES})`);
  if (buf.length < length) return INCOMPLETE;
  const parsed = (source: ProxySource): ProxyHeader => ({ state: "parsed", version: 2, length, source });
  // LOCAL: the proxy's own connection (a health check); its addresses are to be ignored
  if (command === 0) return parsed(null);
  const familyTransport = buf[13] as number;
  switch (familyTransport) {
    case 0x11: // TCP over IPv4: source, destination (4 bytes each), source port, destination port
      if (length < 16 + 12) return invalid("version 2 TCP/IPv4 header too short for its addresses");
      return parsed({ address: `${buf[16]}.${buf[17]}.${buf[18]}.${buf[19]}`, port: buf.readUInt16BE(24) });
    case 0x21: {
      // TCP over IPv6: 16 bytes each
      if (length < 16 + 36) return invalid("version 2 TCP/IPv6 header too short for its addresses");
      const groups: string[] = [];
      for (let i = 0; i < 8; i++) groups.push(buf.readUInt16BE(16 + 2 * i).toString(16));
      return parsed({ address: canonical(groups.join(":"), 6), port: buf.readUInt16BE(48) });
    }
    case 0x00: // UNSPEC: the spec's receiver accepts it and keeps the real endpoints
    case 0x31: // a unix stream socket: no client address to take
      return parsed(null);
    default:
      return invalid(`version 2 header for a transport SMTP does not run on (0x${familyTransport.toString(16).padStart(2, "0")})`);
  }
}

/** One spelling per address (IPv6 compressed and lower case), as smtp-server and the per-IP limits compare them. */
function canonical(address: string, family: 4 | 6): string {
  return new SocketAddress({ address, family: family === 4 ? "ipv4" : "ipv6" }).address;
}

/**
 * Reads a PROXY header, version 1 or 2, from the first bytes of a connection: `incomplete` while
 * they may still become one, `invalid` once they cannot (anything that is not a PROXY header is).
 */
export function parseProxyHeader(buf: Buffer): ProxyHeader {
  if (startsLike(buf, V2_SIGNATURE)) return buf.length < V2_SIGNATURE.length ? INCOMPLETE : parseV2(buf);
  if (startsLike(buf, V1_PREFIX)) return buf.length < V1_PREFIX.length ? INCOMPLETE : parseV1(buf);
  return invalid("not a PROXY protocol header");
}

/** Why an entry of `smtp.proxy_protocol.trusted_cidrs` cannot be used, or null: an IP address, or a range `address/bits`. */
export function cidrProblem(entry: string): string | null {
  const [address = "", bits, ...more] = entry.split("/");
  const family = isIP(address);
  if (!family || more.length > 0) return "must be an IP address or a CIDR range (10.0.0.0/8, fd00::/8)";
  if (bits === undefined) return null;
  const max = family === 4 ? 32 : 128;
  if (!/^[0-9]{1,3}$/.test(bits) || Number(bits) > max) return `must have a prefix length of 0 to ${max}`;
  return null;
}

/** The peers whose PROXY headers are believed. Entries are checked by the config (`cidrProblem`). */
export function trustedPeers(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = "", bits] = entry.split("/");
    const type = isIP(address) === 4 ? "ipv4" : "ipv6";
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return list;
}

/** Whether the peer is in the list (an IPv4 peer of a dual-stack listener, `::ffff:a.b.c.d`, as its IPv4 self). */
export function isTrustedPeer(list: BlockList, peer: string | undefined): boolean {
  if (!peer) return false;
  const family = isIP(peer);
  if (!family) return false;
  return list.check(peer, family === 4 ? "ipv4" : "ipv6");
}

export interface ProxyProtocolOptions {
  /** `smtp.proxy_protocol.trusted_cidrs`: the load balancer's addresses. Empty: the PROXY protocol is off. */
  trustedCidrs: readonly string[];
  /** `smtp.proxy_protocol.untrusted`: a connection from any other peer is refused (421), or served as the peer's own. */
  untrusted: "refuse" | "plain";
  /** How long a trusted peer may take to send its header (the intake's idle timeout); closed after. */
  headerTimeoutMs: number;
}

/** The listener smtp-server put on its net.Server: it takes a plain socket through to an SMTP session. */
type ConnectionListener = (socket: Socket) => void;

/**
 * Puts the PROXY protocol in front of `server` (before it listens): a connection from a trusted
 * peer must open with a header, version 1 or 2, and becomes the session of the client it names
 * (or the peer's own for LOCAL and UNKNOWN, the load balancer's health checks); a peer that sends
 * anything else, or nothing within the timeout, is closed without a word. A connection from any
 * other peer is never asked for a header, so a PROXY line it sends is an unknown command: it is
 * refused with 421 (`untrusted: "refuse"`) or served as the peer's own (`"plain"`).
 */
export function acceptProxyProtocol(server: SMTPServer, options: ProxyProtocolOptions, logger: Logger): void {
  if (options.trustedCidrs.length === 0) return;
  const trusted = trustedPeers(options.trustedCidrs);
  const listeners = server.server.listeners("connection") as ConnectionListener[];
  const plain = listeners[0];
  if (!plain || listeners.length !== 1) throw new Error("smtp-server's connection listener is not where it is expected");
  server.server.removeListener("connection", plain);
  server.server.on("connection", (socket: Socket) => {
    if (isTrustedPeer(trusted, socket.remoteAddress)) return readHeader(socket);
    if (options.untrusted === "plain") return plain(socket);
    refuse(socket);
  });

  function refuse(socket: Socket): void {
    pipeline.smtpReplies.inc({ command: "connect", code: "421" });
    logger.warn(
      { peer: socket.remoteAddress },
      "SMTP connection refused: not from smtp.proxy_protocol.trusted_cidrs (smtp.proxy_protocol.untrusted is refuse)",
    );
    socket.on("error", () => undefined);
    socket.end("421 4.7.0 Connections are accepted through the load balancer only\r\n", () => socket.destroy());
  }

  function readHeader(socket: Socket): void {
    const peer = socket.remoteAddress;
    // smtp-server's own guard list: close() destroys what waits there, and maxClients counts it
    server._pendingSockets.set(socket, socket);
    let held: Buffer = Buffer.alloc(0);
    const release = () => {
      clearTimeout(timer);
      server._pendingSockets.delete(socket);
      socket.removeListener("readable", read);
      socket.removeListener("error", gone);
      socket.removeListener("end", gone);
      socket.removeListener("close", gone);
    };
    const drop = (reason: string) => {
      release();
      logger.warn({ peer, reason }, "SMTP connection from a trusted proxy closed: no valid PROXY protocol header");
      socket.on("error", () => undefined);
      socket.destroy();
    };
    // the peer left (or failed) before its header was in: nothing to tell anyone
    const gone = () => {
      release();
      socket.on("error", () => undefined);
      socket.destroy();
    };
    const timer = setTimeout(() => drop("no header in time"), options.headerTimeoutMs);
    timer.unref();
    function read(): void {
      let chunk: Buffer | null;
      while ((chunk = socket.read() as Buffer | null) !== null) {
        held = held.length ? Buffer.concat([held, chunk]) : chunk;
        const header = parseProxyHeader(held);
        if (header.state === "incomplete") continue;
        if (header.state === "invalid") return drop(header.reason);
        release();
        // what came after the header is the client's SMTP: smtp-server reads it first
        const rest = held.subarray(header.length);
        if (rest.length > 0) socket.unshift(rest);
        const source = header.source;
        server.connect(socket, source ? { remoteAddress: source.address, remotePort: source.port } : {});
        return;
      }
    }
    socket.on("readable", read);
    socket.on("error", gone);
    socket.on("end", gone);
    socket.on("close", gone);
  }
}
