import { casesFor, operationsOf, seededRandom, type FuzzCase } from "./cases";

/** A credential the campaign sends; `refresh` gets a new one when it stops working (logout, delete). */
export interface FuzzCredential {
  name: string;
  header: () => Promise<string | null>;
  refresh?: () => Promise<void>;
}

export interface FuzzFinding {
  case: FuzzCase;
  credential: string;
  status: number;
  problem: string;
  body: string;
}

export interface FuzzReport {
  requests: number;
  operations: number;
  byStatus: Record<number, number>;
  serverErrors: number;
  envelopeOk: number;
  refusedMutations: number;
  findings: FuzzFinding[];
  seconds: number;
}

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** What every error answer must look like: the envelope of spec 7.1, or 7.2 for 429. */
export function envelopeProblem(status: number, text: string): string | null {
  if (status < 400) return null;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return "error body is not JSON";
  }
  const b = body as Record<string, unknown> | null;
  if (!b || typeof b.error !== "string") return "error body has no string `error`";
  if (status === 429) return Number.isInteger(b.retry_after) ? null : "429 body has no integer retry_after";
  return typeof b.code === "string" ? null : "error body has no string `code`";
}

/**
 * Sends `total` seeded malformed requests spread over every operation of the served document,
 * one at a time, with each credential in turn. Asserts per request: no 5xx, every error in the
 * envelope, and, for a refused mutation, an unchanged `stateProbe()` (what the caller's tenant
 * holds), so a refused request changed nothing.
 */
export async function runFuzz(opts: {
  baseUrl: string;
  seed: number;
  total: number;
  credentials: FuzzCredential[];
  stateProbe: () => Promise<string>;
  /** Extra headers on every request (e.g. a per-campaign client IP through a trusted proxy). */
  headers?: () => Record<string, string>;
}): Promise<FuzzReport> {
  const started = Date.now();
  const docRes = await fetch(`${opts.baseUrl}/api/v1/docs/openapi.json`);
  const ops = operationsOf((await docRes.json()) as Parameters<typeof operationsOf>[0]);
  const random = seededRandom(opts.seed);
  const perOp = Math.max(1, Math.ceil(opts.total / ops.length));
  const report: FuzzReport = {
    requests: 0,
    operations: ops.length,
    byStatus: {},
    serverErrors: 0,
    envelopeOk: 0,
    refusedMutations: 0,
    findings: [],
    seconds: 0,
  };
  // self-service operations that end a session or an account run last, so they cost the rest nothing
  const last = (id: string) => /logout|deleteMe|revoke.*Session|changePassword/i.test(id);
  const ordered = [...ops.filter((o) => !last(o.operationId)), ...ops.filter((o) => last(o.operationId))];
  let before = await opts.stateProbe();
  for (const op of ordered) {
    for (const [i, c] of casesFor(op, perOp, random).entries()) {
      const credential = opts.credentials[i % opts.credentials.length] as FuzzCredential;
      // a GET carries no body (fetch refuses one): its cases still exercise path, query and headers
      const body = c.method === "GET" ? null : c.body;
      const auth = await credential.header();
      const headers: Record<string, string> = { ...(opts.headers?.() ?? {}) };
      if (auth) headers.authorization = auth;
      if (c.contentType && body !== null) headers["content-type"] = c.contentType;
      let status: number;
      let text: string;
      try {
        const res = await fetch(`${opts.baseUrl}/api/v1${c.url}`, { method: c.method, headers, ...(body !== null ? { body } : {}) });
        status = res.status;
        text = await res.text();
      } catch (err) {
        status = 0;
        text = String(err);
      }
      report.requests++;
      report.byStatus[status] = (report.byStatus[status] ?? 0) + 1;
      const record = (problem: string) =>
        report.findings.push({
          case: { ...c, url: c.url.slice(0, 200), body: c.body?.slice(0, 200) ?? null },
          credential: credential.name,
          status,
          problem,
          body: text.slice(0, 300),
        });
      if (status === 0 || status >= 500) {
        report.serverErrors++;
        record(status === 0 ? "connection failed" : "server error");
      }
      const envelope = envelopeProblem(status, text);
      if (status >= 400 && !envelope) report.envelopeOk++;
      if (envelope) record(envelope);
      if (status >= 400 && MUTATING.has(c.method)) {
        report.refusedMutations++;
        const after = await opts.stateProbe();
        if (after !== before) record("a refused request changed state");
        before = after;
      } else if (status < 400) {
        before = await opts.stateProbe();
      }
      if (status === 401 && credential.refresh) {
        await credential.refresh(); // a new login is itself a change (its audit entry)
        before = await opts.stateProbe();
      }
    }
  }
  report.seconds = (Date.now() - started) / 1000;
  return report;
}
