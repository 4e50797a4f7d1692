/**
 * Malformed requests for every operation of an OpenAPI 3.0 document, reproducible from a seed.
 * The document is the one the gateway serves, so operations added later are fuzzed with no edit.
 */

export interface FuzzOperation {
  operationId: string;
  method: string;
  /** OpenAPI path, e.g. `/orgs/{orgId}/teams/{teamId}`. */
  path: string;
  pathParams: string[];
  query: Array<{ name: string; schema: Schema }>;
  body: Schema | null;
}

export interface FuzzCase {
  operationId: string;
  method: string;
  /** Path and query, relative to /api/v1, already percent-encoded as sent. */
  url: string;
  contentType: string | null;
  body: string | null;
  /** What was done to the request, for failure messages. */
  mutation: string;
}

export interface Schema {
  type?: string;
  format?: string;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  $ref?: string;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
}

interface Document {
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        parameters?: Array<{ in: string; name: string; schema?: Schema }>;
        requestBody?: { content?: Record<string, { schema?: Schema }> };
      }
    >
  >;
  components?: { schemas?: Record<string, Schema> };
}

/** mulberry32: small, fast, and the same sequence for the same seed on every machine. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const METHODS = ["get", "post", "put", "patch", "delete"];

export function operationsOf(doc: Document): FuzzOperation[] {
  const resolve = (s: Schema | undefined): Schema => {
    if (!s) return {};
    if (s.$ref) return resolve(doc.components?.schemas?.[s.$ref.replace("#/components/schemas/", "")]);
    if (s.allOf) return s.allOf.map(resolve).reduce((a, b) => ({ ...a, ...b, properties: { ...a.properties, ...b.properties } }), {});
    const props = s.properties ? Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, resolve(v)])) : undefined;
    return { ...s, ...(props ? { properties: props } : {}), ...(s.items ? { items: resolve(s.items) } : {}) };
  };
  const out: FuzzOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const params = op.parameters ?? [];
      out.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === "path").map((p) => p.name),
        query: params.filter((p) => p.in === "query").map((p) => ({ name: p.name, schema: resolve(p.schema) })),
        body: op.requestBody?.content?.["application/json"]?.schema ? resolve(op.requestBody.content["application/json"].schema) : null,
      });
    }
  }
  return out.sort((a, b) => a.operationId.localeCompare(b.operationId));
}

/** Strings that have broken parsers, databases or renderers somewhere. */
export const EDGE_STRINGS = [
  "a\u0000b",
  "x\ud800y",
  "\udc00",
  "\u202eevil\u202c",
  "\u{1F600}\u{1F469}\u200d\u{1F4BB}",
  "שלום",
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "%s%n%x",
  "\r\nX-Injected: 1",
  "",
  " ",
  "x".repeat(70_000),
];

const BAD_PATH_VALUES = [
  "%",
  "%E0%A4%A",
  "%zz",
  "%00",
  "..%2F..%2F",
  "not-a-uuid",
  "00000000-0000-0000-0000-00000000000g",
  "x".repeat(3000),
  "%F0%9F%98%80",
];
const BAD_QUERY_VALUES = [
  "abc",
  "-1",
  "0",
  "1.5",
  "1e309",
  "0x10",
  "99999999999999999999",
  "%00%01",
  "%ED%A0%80",
  "%E2%80%AE",
  "x".repeat(5000),
];

function randomUuid(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16)).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A plausible value of the schema, so a mutation of one field is not hidden by another. */
export function plausible(schema: Schema, random: () => number, depth = 0): unknown {
  if (schema.enum?.length) return schema.enum[Math.floor(random() * schema.enum.length)];
  switch (schema.type) {
    case "string":
      if (schema.format === "uuid") return randomUuid(random);
      if (schema.format === "date-time") return new Date(1_800_000_000_000).toISOString();
      if (schema.format === "email") return `fuzz${Math.floor(random() * 1e6)}@example.test`;
      return `fuzz-${Math.floor(random() * 1e6)}`;
    case "integer":
    case "number":
      return Math.max(schema.minimum ?? 1, Math.min(schema.maximum ?? 10, 1));
    case "boolean":
      return random() < 0.5;
    case "array":
      return depth > 4 || !schema.items ? [] : [plausible(schema.items, random, depth + 1)];
    default:
      if (!schema.properties || depth > 4) return {};
      return Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, plausible(v, random, depth + 1)]));
  }
}

function deepNesting(levels: number): string {
  return `{"a":${"[".repeat(levels)}${"]".repeat(levels)}}`;
}

const pick = <T>(items: readonly T[], random: () => number): T => items[Math.floor(random() * items.length)] as T;

/** `count` cases for one operation: each request breaks one thing (or several, now and then). */
export function casesFor(op: FuzzOperation, count: number, random: () => number): FuzzCase[] {
  const cases: FuzzCase[] = [];
  const validPath = () => op.path.replace(/\{([^}]+)\}/g, () => randomUuid(random));
  const encodeQuery = (pairs: Array<[string, string]>) => (pairs.length === 0 ? "" : `?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}`);
  const json = (value: unknown): Pick<FuzzCase, "contentType" | "body"> => ({
    contentType: "application/json",
    body: JSON.stringify(value),
  });
  const baseBody = () => (op.body ? (plausible(op.body, random) as Record<string, unknown>) : null);

  const generators: Array<() => Omit<FuzzCase, "operationId" | "method">> = [];
  if (op.pathParams.length > 0) {
    generators.push(() => {
      const bad = pick(BAD_PATH_VALUES, random);
      const target = pick(op.pathParams, random);
      const url = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => (name === target ? bad : randomUuid(random)));
      return { url, ...json(baseBody() ?? {}), mutation: `path ${target}=${bad.slice(0, 40)}` };
    });
  }
  for (const q of op.query) {
    generators.push(() => {
      const value = pick(BAD_QUERY_VALUES, random);
      return {
        url: validPath() + encodeQuery([[q.name, value]]),
        contentType: null,
        body: null,
        mutation: `query ${q.name}=${value.slice(0, 40)}`,
      };
    });
    generators.push(() => ({
      url:
        validPath() +
        encodeQuery([
          [`${q.name}[]`, "1"],
          [`${q.name}[]`, "2"],
        ]),
      contentType: null,
      body: null,
      mutation: `query ${q.name}[] array`,
    }));
  }
  generators.push(() => ({
    url:
      validPath() +
      encodeQuery([
        ["page", pick(BAD_QUERY_VALUES, random)],
        ["per_page", "1000"],
      ]),
    contentType: null,
    body: null,
    mutation: "bad pagination",
  }));
  generators.push(() => ({ url: validPath(), contentType: "application/json", body: "{not json", mutation: "malformed JSON" }));
  generators.push(() => ({
    url: validPath(),
    contentType: pick(["text/plain", "application/xml", "application/x-www-form-urlencoded"], random),
    body: "a=1",
    mutation: "wrong content type",
  }));
  generators.push(() => ({
    url: validPath(),
    contentType: "application/json",
    body: JSON.stringify({ pad: "x".repeat(1_100_000) }),
    mutation: "oversized body",
  }));
  generators.push(() => ({ url: validPath(), contentType: "application/json", body: deepNesting(5000), mutation: "deep nesting" }));
  generators.push(() => ({ url: validPath(), ...json(pick([[], "s", 1, null, true], random)), mutation: "body not an object" }));
  if (op.body?.properties) {
    const fields = Object.keys(op.body.properties);
    generators.push(() => {
      const body = baseBody() ?? {};
      const field = pick(fields, random);
      const value = pick(EDGE_STRINGS, random);
      body[field] = value;
      return { url: validPath(), ...json(body), mutation: `body ${field}=edge string ${JSON.stringify(value.slice(0, 20))}` };
    });
    generators.push(() => {
      const body = baseBody() ?? {};
      const field = pick(fields, random);
      body[field] = pick([12345, -1, 1e308, true, null, [], {}, ["a"], { $gt: "" }, "0".repeat(400)], random);
      return { url: validPath(), ...json(body), mutation: `body ${field} wrong type` };
    });
    generators.push(() => {
      const body = baseBody() ?? {};
      delete body[pick(fields, random)];
      body[`extra_${Math.floor(random() * 100)}`] = "x";
      Object.defineProperty(body, "__proto__", { value: { is_system_admin: true }, enumerable: true, configurable: true, writable: true });
      return { url: validPath(), ...json(body), mutation: "missing and extra fields" };
    });
  }
  for (let i = 0; i < count; i++) {
    const c = pick(generators, random)();
    cases.push({ operationId: op.operationId, method: op.method, ...c });
  }
  return cases;
}
