/**
 * Seeds one team of one org with a year of mail through the inbox service's bulk write path
 * (`BulkImportRepository`: multi-row inserts in batches, scoped to the team), the way a team that
 * used BurnBox for a year would have it: INBOXES inboxes; one in ten emails goes to the first
 * ("the busy inbox", a CI address), the rest spread over the others; 2,000 sender domains with a
 * skew (a few send most of it); subjects from twenty templates with codes, numbers and names; text
 * bodies of 200 to 4,000 characters (HTML beside it for 40%); one in eight has an attachment flag,
 * about half are read; received times spread over the last 365 days. Every RAW_EVERY-th email also
 * gets its raw message written to the configured storage (`MessageStore.put`, as the intake does);
 * the others have none (their bodies are in the rows, which is what the API reads).
 *
 * Email n is the same whatever the batch: seeding 0..10k then 10k..1M gives the same mail as 0..1M.
 * Used by scale.bench.ts, body-index.bench.ts and search-plans.bench.ts; progress goes to stderr.
 */
import { randomUUID } from "node:crypto";
import type { Pool } from "pg";
import { poolSql, type TeamScope } from "@burnbox/service-kit/data";
import { BulkImportRepository, type BulkEmail, type BulkInbox } from "../../services/inbox/src/data/bulk-import.repository";
import type { MessageStore } from "../../services/inbox/src/domain/message-store";

export const BUSY_SHARE = 10; // one email in BUSY_SHARE goes to the busy inbox
const SENDER_DOMAINS = 2000;
const DAY_MS = 86_400_000;

/** A small fast PRNG (mulberry32): the same n gives the same email. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  "the a to of and in for your is on with this that we you our please account order team update new " +
  "report build deploy release version test staging production server error warning notice invoice payment " +
  "receipt shipping delivery tracking password reset verify confirm code login security alert customer support " +
  "ticket meeting agenda notes review project sprint backlog feature request change approved rejected pending " +
  "weekly monthly summary dashboard metrics usage quota limit storage billing subscription renewal trial " +
  "welcome onboarding guide documentation link click below button expires minutes hours today tomorrow"
).split(" ");
const COMPANIES = [
  "Acme",
  "Globex",
  "Initech",
  "Umbrella",
  "Hooli",
  "Stark",
  "Wayne",
  "Wonka",
  "Tyrell",
  "Cyberdyne",
  "Soylent",
  "Vandelay",
];
const NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "mallory", "niaj", "olivia", "peggy"];
const SUBJECTS: Array<(r: () => number) => string> = [
  (r) => `Your verification code is ${String(Math.floor(r() * 1e6)).padStart(6, "0")}`,
  (r) => `Invoice #${Math.floor(r() * 1e5)} from ${pick(r, COMPANIES)}`,
  (r) => `Weekly report, week ${1 + Math.floor(r() * 52)}`,
  () => "Reset your password",
  (r) => `Welcome to ${pick(r, COMPANIES)}`,
  (r) => `Order ${Math.floor(r() * 1e7)} has shipped`,
  (r) => `Meeting notes: ${pick(r, WORDS)} ${pick(r, WORDS)}`,
  (r) => `[CI] build ${Math.floor(r() * 1e4)} ${r() < 0.8 ? "passed" : "failed"}`,
  (r) => `Confirm your email address for ${pick(r, COMPANIES)}`,
  (r) => `Security alert: new sign-in from ${pick(r, ["Linux", "Windows", "macOS", "iPhone", "Android"])}`,
  (r) => `Your ${pick(r, COMPANIES)} receipt`,
  (r) => `Re: ${pick(r, WORDS)} ${pick(r, WORDS)} ${pick(r, WORDS)}`,
  (r) => `Ticket ${Math.floor(r() * 1e5)} updated`,
  (r) => `${pick(r, NAMES)} invited you to ${pick(r, COMPANIES)}`,
  () => "Your trial ends tomorrow",
  (r) => `Monthly usage summary for ${pick(r, ["January", "February", "March", "April", "May", "June"])}`,
  (r) => `Delivery ${Math.floor(r() * 1e6)} is out for delivery`,
  (r) => `Fwd: ${pick(r, WORDS)} ${pick(r, WORDS)}`,
  () => "Action required: verify your account",
  (r) => `Release ${Math.floor(r() * 10)}.${Math.floor(r() * 20)}.${Math.floor(r() * 30)} notes`,
];

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;

function body(r: () => number, subject: string): string {
  // 200..4000 characters, most of them short (transactional mail)
  const target = 200 + Math.floor(3800 * r() ** 2.5);
  const parts: string[] = [`Hello ${pick(r, NAMES)},`, subject + "."];
  let len = parts[0]!.length + parts[1]!.length;
  while (len < target) {
    const w = pick(r, WORDS);
    parts.push(w);
    len += w.length + 1;
  }
  return parts.join(" ");
}

/** The inbox ids and addresses of a seeded team: inbox 0 is the busy one. */
export interface SeedPlan {
  scope: TeamScope;
  domain: { id: string; assignmentId: string; name: string };
  createdBy: string;
  inboxIds: string[];
  /** Seeding ends its year here (ms since the epoch); mail is spread over the 365 days before. */
  now: number;
}

export function plan(scope: TeamScope, domain: SeedPlan["domain"], createdBy: string, inboxes: number, now = Date.now()): SeedPlan {
  return { scope, domain, createdBy, inboxIds: Array.from({ length: inboxes }, () => randomUUID()), now };
}

const addressOf = (i: number) => (i === 0 ? "ci-busy" : `qa-${i}`);

/** Writes the plan's inboxes (created over the year, living another year). */
export async function seedInboxes(bulk: BulkImportRepository, p: SeedPlan): Promise<void> {
  const rows: BulkInbox[] = p.inboxIds.map((id, i) => ({
    id,
    domainId: p.domain.id,
    domainAssignmentId: p.domain.assignmentId,
    createdBy: p.createdBy,
    address: addressOf(i),
    domainName: p.domain.name,
    createdAt: new Date(p.now - 366 * DAY_MS + Math.floor((i / p.inboxIds.length) * DAY_MS)),
    expiresAt: new Date(p.now + 365 * DAY_MS),
  }));
  for (let i = 0; i < rows.length; i += 2000) await bulk.insertInboxes(p.scope, rows.slice(i, i + 2000));
}

/**
 * A team of its own in an inbox database with no other service beside it (the org, team, domain
 * and creator are made-up ids): its `inboxes` inboxes written, then ANALYZE, without which the
 * emails' insert joins to the inboxes by a scan of all of them per email. For the benches that
 * seed a bare inbox database (body-index, search-plans).
 */
export async function seedDetachedTeam(pool: Pool, inboxes: number): Promise<{ bulk: BulkImportRepository; plan: SeedPlan }> {
  const bulk = new BulkImportRepository(poolSql(pool));
  const p = plan(
    { orgId: randomUUID(), teamId: randomUUID() },
    { id: randomUUID(), assignmentId: randomUUID(), name: "bench.example" },
    randomUUID(),
    inboxes,
  );
  await seedInboxes(bulk, p);
  await pool.query("ANALYZE inboxes");
  return { bulk, plan: p };
}

/** What the analytics consumers would have counted for the seeded mail (added into tenancy's tables by the caller). */
export interface SeedTally {
  hourly: Map<string, { emails: number; bytes: number }>; // "YYYY-MM-DD|h"
  senderDomains: Map<string, number>;
  bytes: number;
}
export const newTally = (): SeedTally => ({ hourly: new Map(), senderDomains: new Map(), bytes: 0 });

/** Email n of the plan. */
export function emailOf(p: SeedPlan, n: number): BulkEmail & { senderDomain: string } {
  const r = rng(n * 2654435761 + 17);
  const inbox = n % BUSY_SHARE === 0 ? 0 : 1 + Math.floor(r() * (p.inboxIds.length - 1));
  const senderDomain = `sender-${Math.floor(SENDER_DOMAINS * r() ** 3)}.example`;
  const subject = pick(r, SUBJECTS)(r);
  const text = body(r, subject);
  const html = r() < 0.4 ? `<html><body><p>${text.replace(/\. /g, ".</p><p>")}</p></body></html>` : null;
  const id = randomUUID();
  const inboxId = p.inboxIds[inbox] as string;
  return {
    id,
    inboxId,
    messageId: `<${n}.${id.slice(0, 8)}@${senderDomain}>`,
    fromAddress: `${pick(r, NAMES)}@${senderDomain}`,
    toAddress: `${addressOf(inbox)}@${p.domain.name}`,
    subject,
    snippet: text.slice(0, 200),
    bodyText: text,
    bodyHtml: html,
    sizeBytes: 600 + text.length + (html?.length ?? 0),
    isRead: r() < 0.5,
    hasAttachments: r() < 0.125,
    rawKey: null,
    receivedAt: new Date(p.now - Math.floor(r() * 365 * DAY_MS)),
    senderDomain,
  };
}

const rawMessage = (e: BulkEmail): Buffer =>
  Buffer.from(
    `Message-ID: ${e.messageId}\r\nFrom: ${e.fromAddress}\r\nTo: ${e.toAddress}\r\nSubject: ${e.subject}\r\n` +
      `Date: ${e.receivedAt.toUTCString()}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${e.bodyText}\r\n`,
  );

/**
 * Writes emails [from, to) of the plan in batches of `batch`, with the raw message of every
 * `rawEvery`-th in `store`; reports progress to stderr; adds what it wrote to `tally`.
 */
export async function seedEmails(
  bulk: BulkImportRepository,
  store: MessageStore,
  p: SeedPlan,
  range: { from: number; to: number; batch?: number; rawEvery?: number },
  tally: SeedTally,
): Promise<void> {
  const batch = range.batch ?? 5000;
  const rawEvery = range.rawEvery ?? 100;
  const t0 = Date.now();
  let lastReport = t0;
  for (let start = range.from; start < range.to; start += batch) {
    const rows: BulkEmail[] = [];
    const raws: Array<Promise<void>> = [];
    for (let n = start; n < Math.min(range.to, start + batch); n++) {
      const { senderDomain, ...e } = emailOf(p, n);
      if (n % rawEvery === 0) {
        e.rawKey = `${e.inboxId}/${e.id}/message.eml`;
        raws.push(store.put(e.rawKey, rawMessage(e)));
      }
      rows.push(e);
      const at = e.receivedAt.toISOString();
      const key = `${at.slice(0, 10)}|${Number(at.slice(11, 13))}`;
      const h = tally.hourly.get(key) ?? { emails: 0, bytes: 0 };
      h.emails++;
      h.bytes += e.sizeBytes;
      tally.hourly.set(key, h);
      tally.senderDomains.set(senderDomain, (tally.senderDomains.get(senderDomain) ?? 0) + 1);
      tally.bytes += e.sizeBytes;
    }
    await Promise.all(raws);
    const written = await bulk.insertEmails(p.scope, rows);
    if (written !== rows.length) throw new Error(`bulk insert wrote ${written} of ${rows.length}`);
    const done = Math.min(range.to, start + batch);
    if (Date.now() - lastReport > 5000 || done === range.to) {
      lastReport = Date.now();
      const s = (Date.now() - t0) / 1000;
      process.stderr.write(`seed: ${done.toLocaleString("en")} emails (${Math.round((done - range.from) / s)} emails/s)\n`);
    }
  }
}
