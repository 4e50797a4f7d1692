import { randomInt } from "node:crypto";
import dgram from "node:dgram";
import { getServers } from "node:dns";
import net from "node:net";
import dns2 from "dns2";
import { LRUCache } from "lru-cache";

const { Packet } = dns2;
type DnsPacket = InstanceType<typeof Packet>;

/** The record types the mail checks ask for, and what each answers (the shapes of `node:dns`'s `resolve`). */
export const RECORD_TYPES = ["TXT", "A", "AAAA", "MX", "PTR", "CNAME", "NS"] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

/**
 * A lookup that found nothing or failed, with the code `node:dns` would give: `ENOTFOUND` (no such
 * name) and `ENODATA` (no such record) are answers; `ESERVFAIL`, `EREFUSED`, `ETIMEOUT`,
 * `ECONNREFUSED`, `EFORMERR` are failures (mail checks call them `temperror`). `ETIMEOUT` is also
 * what a lookup past its message's budget (time or count) gets.
 */
export class DnsLookupError extends Error {
  override name = "DnsLookupError";
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** What one message may still spend on lookups: a deadline (ms since the epoch) and a number of lookups. */
export interface LookupBudget {
  deadline: number;
  lookupsLeft: number;
}

interface Server {
  host: string;
  port: number;
}

/** `host`, `host:port`, `[v6]:port` or a bare IPv6 address (port 53 when none is given). */
export function parseServer(entry: string): Server {
  const s = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(s);
  if (bracketed) return { host: bracketed[1]!, port: bracketed[2] ? Number(bracketed[2]) : 53 };
  if (net.isIPv6(s)) return { host: s, port: 53 };
  const [host, port] = s.split(":");
  return { host: host!, port: port ? Number(port) : 53 };
}

/** A cached answer: records, or the absence (`ENOTFOUND`/`ENODATA`) a negative TTL allows keeping. */
type Entry = { records: unknown[]; expiresAt: number } | { absent: "ENOTFOUND" | "ENODATA"; expiresAt: number };

const RCODE_ERRORS: Readonly<Record<number, string>> = { 1: "EFORMERR", 2: "ESERVFAIL", 4: "ENOTIMP", 5: "EREFUSED" };

/** Records are kept at most this long whatever their TTL says. */
const MAX_TTL_S = 86_400;

/** The records of the answer section of type `type`, in the shapes `node:dns` gives. */
function recordsOf(packet: DnsPacket, type: RecordType): { records: unknown[]; ttl: number } {
  const wanted = Packet.TYPE[type];
  const answers = packet.answers.filter((a) => a.type === wanted) as unknown as Array<Record<string, unknown> & { ttl: number }>;
  const ttl = answers.reduce((min, a) => Math.min(min, a.ttl), MAX_TTL_S);
  const records = answers.map((a): unknown => {
    switch (type) {
      case "TXT":
        // dns2 joins a record's character strings; the mail checks join them too
        return [String(a.data)];
      case "A":
      case "AAAA":
        return a.address;
      case "MX":
        return { exchange: a.exchange, priority: a.priority };
      case "PTR":
      case "CNAME":
        return a.domain;
      case "NS":
        return a.ns;
    }
  });
  return { records, ttl };
}

/** RFC 2308: a negative answer may be kept for the SOA's TTL, at most its `minimum`; without a SOA it is not kept. */
function negativeTtl(packet: DnsPacket): number {
  const soa = packet.authorities.find((r) => r.type === Packet.TYPE.SOA) as { ttl: number; minimum?: number } | undefined;
  return soa ? Math.min(soa.ttl, soa.minimum ?? 0, MAX_TTL_S) : 0;
}

/**
 * The DNS the mail checks ask (extensions section 3: `dns.servers`), with a cache that keeps each
 * answer for its records' TTL (negative answers for their SOA's, RFC 2308), shares a query in
 * flight between the messages that ask the same, and holds every lookup to its message's budget:
 * past the deadline or the count, a lookup fails with `ETIMEOUT` at once. Queries go over UDP on a
 * connected socket (so a server that is not there answers `ECONNREFUSED` at once rather than after
 * the timeout), with EDNS0, and again over TCP when the answer is truncated.
 */
export class DnsRecords {
  private readonly cache: LRUCache<string, Entry>;
  private readonly inflight = new Map<string, Promise<Entry>>();
  private readonly servers: Server[];

  constructor(
    private readonly opts: {
      /** `dns.servers`: `host:port` entries; empty = the system's. */
      servers: readonly string[];
      /** `dns.timeout_ms`: the longest one query may take. */
      timeoutMs: number;
      /** The most answers kept (10,000); the least recently used go first. */
      maxEntries?: number;
      now?: () => number;
    },
  ) {
    // with none configured, the servers of the system's resolver (`/etc/resolv.conf`)
    const configured = opts.servers.length > 0 ? opts.servers : getServers();
    this.servers = configured.map(parseServer);
    this.cache = new LRUCache({ max: opts.maxEntries ?? 10_000 });
  }

  private get now(): number {
    return (this.opts.now ?? Date.now)();
  }

  /** The records of `name` of type `type` (shaped like `node:dns`'s answers), or a `DnsLookupError`. */
  async lookup(name: string, type: RecordType, budget: LookupBudget): Promise<unknown[]> {
    // the caller awaits the returned promise before a kept absence rejects it: a promise that
    // rejects before anyone listens is tracked as a possibly unhandled rejection, which cost more
    // than the rest of a cached lookup (the DMARC walk asks names that do not exist on every message)
    await Promise.resolve();
    const remaining = budget.deadline - this.now;
    if (remaining <= 0 || budget.lookupsLeft <= 0) throw new DnsLookupError("ETIMEOUT", `no DNS budget left for ${type} ${name}`);
    budget.lookupsLeft -= 1;
    const key = `${type} ${name.toLowerCase().replace(/\.$/, "")}`;
    let entry = this.cached(key);
    if (!entry) {
      let pending = this.inflight.get(key);
      if (!pending) {
        pending = this.query(key, name, type).finally(() => this.inflight.delete(key));
        this.inflight.set(key, pending);
      }
      entry = await withDeadline(pending, remaining, `${type} ${name}`);
    }
    if ("absent" in entry) throw knownAbsence(entry.absent, `${type} ${name}: ${entry.absent}`);
    return entry.records;
  }

  /** How many answers are kept (tests, metrics). */
  get size(): number {
    return this.cache.size;
  }

  private cached(key: string): Entry | undefined {
    const entry = this.cache.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > this.now) return entry;
    this.cache.delete(key);
    return undefined;
  }

  private keep(key: string, entry: Entry): void {
    if (entry.expiresAt <= this.now) return;
    this.cache.set(key, entry);
  }

  /** Asks each server in turn until one answers (a failure moves on to the next). */
  private async query(key: string, name: string, type: RecordType): Promise<Entry> {
    let lastError: DnsLookupError = new DnsLookupError("ESERVFAIL", "no DNS server configured");
    for (const server of this.servers) {
      let packet: DnsPacket;
      try {
        packet = await exchange(server, name, type, this.opts.timeoutMs);
      } catch (err) {
        lastError = err instanceof DnsLookupError ? err : new DnsLookupError("ECONNREFUSED", (err as Error).message);
        continue;
      }
      const rcode = packet.header.rcode;
      if (rcode === 3) {
        const entry: Entry = { absent: "ENOTFOUND", expiresAt: this.now + negativeTtl(packet) * 1000 };
        this.keep(key, entry);
        return entry;
      }
      if (rcode !== 0) {
        lastError = new DnsLookupError(RCODE_ERRORS[rcode] ?? "ESERVFAIL", `${type} ${name}: rcode ${rcode}`);
        continue;
      }
      const { records, ttl } = recordsOf(packet, type);
      const entry: Entry =
        records.length === 0
          ? { absent: "ENODATA", expiresAt: this.now + negativeTtl(packet) * 1000 }
          : { records, expiresAt: this.now + ttl * 1000 };
      this.keep(key, entry);
      return entry;
    }
    throw lastError;
  }
}

/**
 * The error of an answer already known (a kept NXDOMAIN, NODATA or failure): an answer, not a
 * fault, so made without a stack trace, which cost more than the rest of a cached lookup (the
 * checks ask for names that do not exist on every message: the DMARC walk, SPF's exists).
 */
function knownAbsence(code: string, message: string): DnsLookupError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new DnsLookupError(code, message);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

function withDeadline<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new DnsLookupError("ETIMEOUT", `${what}: no answer within the DNS budget`)), ms);
    timer.unref();
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (err: Error) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

function queryPacket(name: string, type: RecordType): DnsPacket {
  const q = new Packet();
  q.header.id = randomInt(0x10000);
  q.header.rd = 1;
  // a plain question: the packet encodes its name, type and class itself
  q.questions.push({ name, type: Packet.TYPE[type], class: Packet.CLASS.IN } as (typeof q.questions)[number]);
  // EDNS0: a DKIM key or a long SPF record fits in one UDP answer
  q.additionals.push(Packet.Resource.EDNS([]));
  return q;
}

/** One query over UDP (a connected socket), then TCP when the answer is truncated. */
function exchange(server: Server, name: string, type: RecordType, timeoutMs: number): Promise<DnsPacket> {
  const query = queryPacket(name, type);
  const started = Date.now();
  return new Promise<DnsPacket>((resolve, reject) => {
    const socket = dgram.createSocket(net.isIPv6(server.host) ? "udp6" : "udp4");
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.close();
      fn();
    };
    const timer = setTimeout(() => finish(() => reject(new DnsLookupError("ETIMEOUT", `${type} ${name}: no answer`))), timeoutMs);
    // a query outlives the budgets of the messages that asked (its answer is still kept for the next),
    // but never keeps the process alive
    timer.unref();
    socket.unref();
    socket.on("error", (err: NodeJS.ErrnoException) =>
      finish(() => reject(new DnsLookupError(err.code === "ECONNREFUSED" ? "ECONNREFUSED" : "ESERVFAIL", err.message))),
    );
    socket.on("message", (message: Buffer) => {
      let answer: DnsPacket;
      try {
        answer = Packet.parse(message);
      } catch {
        return; // not a DNS answer: keep waiting
      }
      if (answer.header.id !== query.header.id) return;
      if (answer.header.tc) {
        finish(() => resolve(exchangeTcp(server, query, Math.max(1, timeoutMs - (Date.now() - started)), `${type} ${name}`)));
        return;
      }
      finish(() => resolve(answer));
    });
    socket.connect(server.port, server.host, () => {
      socket.send(query.toBuffer(), (err) => {
        if (err) finish(() => reject(new DnsLookupError("ECONNREFUSED", err.message)));
      });
    });
  });
}

function exchangeTcp(server: Server, query: DnsPacket, timeoutMs: number, what: string): Promise<DnsPacket> {
  return new Promise<DnsPacket>((resolve, reject) => {
    const socket = net.connect({ host: server.host, port: server.port });
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      fn();
    };
    const timer = setTimeout(() => finish(() => reject(new DnsLookupError("ETIMEOUT", `${what}: no answer over TCP`))), timeoutMs);
    timer.unref();
    socket.unref();
    socket.on("error", (err: NodeJS.ErrnoException) =>
      finish(() => reject(new DnsLookupError(err.code === "ECONNREFUSED" ? "ECONNREFUSED" : "ESERVFAIL", err.message))),
    );
    socket.on("connect", () => {
      const body = query.toBuffer();
      const length = Buffer.alloc(2);
      length.writeUInt16BE(body.length);
      socket.write(Buffer.concat([length, body]));
    });
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      const all = Buffer.concat(chunks, size);
      if (all.length < 2 || all.length < 2 + all.readUInt16BE(0)) return;
      try {
        const answer = Packet.parse(all.subarray(2, 2 + all.readUInt16BE(0)));
        finish(() => resolve(answer));
      } catch (err) {
        finish(() => reject(new DnsLookupError("EFORMERR", (err as Error).message)));
      }
    });
    socket.on("end", () => finish(() => reject(new DnsLookupError("ESERVFAIL", `${what}: connection closed`))));
  });
}
