// The clients in other languages against the OpenAPI document: each package
// `packages/sdk-<lang>/openapi-calls.json` lists the operations its library calls, with the fields
// it sends and the fields it reads, and this check fails when the document (built from
// packages/contracts exactly as the gateway serves it at /api/v1/docs/openapi.json) no longer has
// one of them. So a contract change that would break a client shows here, not in a user's test run.
//
//   node deploy/local/client-calls.mjs --check   prints `N passed, N failed` (part of npm test)
//
// The file: {"calls": [{"method", "path", "request": [...], "response": [...]}], "errors": [...]}
// - `path` as in the document (`/inboxes/{id}`; a leading `/api/v1` is allowed); parameter names
//   need not match, only the shape of the path.
// - `request`: the fields it sends: a path, query or header parameter, or a property of the JSON
//   body. `response`: the fields it reads from the 2xx JSON answer. A field is a top-level name
//   (`full_address`), or a path into it: `data[].extracted.codes[].value` (`[]` steps into an array's
//   items). `$ref`, `allOf`, `oneOf` and `anyOf` are followed.
// - `errors` (optional): the fields it reads from error answers (`code`, `retry_after`): each must be
//   in the error schemas of the operations it lists.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { require as tsxRequire } from "tsx/cjs/api";
import { ROOT } from "./lib.mjs";

const METHODS = new Set(["get", "post", "put", "patch", "delete"]);

/** The document as the gateway serves it (services/api-gateway/src/app.ts builds it the same way). */
export function servedDocument() {
  const { buildOpenApiDocument } = tsxRequire(path.join(ROOT, "packages", "contracts", "src", "index.ts"), import.meta.url);
  return buildOpenApiDocument();
}

/** `packages/sdk-*\/openapi-calls.json`, sorted. */
export function callFiles(root = ROOT) {
  const packages = path.join(root, "packages");
  return readdirSync(packages)
    .filter((name) => name.startsWith("sdk-"))
    .sort()
    .map((name) => path.join(packages, name, "openapi-calls.json"))
    .filter((file) => existsSync(file));
}

const shape = (p) => p.replace(/^\/api\/v1(?=\/)/, "").replace(/\{[^}]*\}|:[A-Za-z_]\w*/g, "{}");

function resolve(doc, schema, seen = new Set()) {
  if (!schema || typeof schema !== "object") return schema;
  if (typeof schema.$ref !== "string") return schema;
  if (seen.has(schema.$ref)) return {};
  seen.add(schema.$ref);
  const target = schema.$ref
    .replace(/^#\//, "")
    .split("/")
    .reduce((o, key) => (o == null ? o : o[key.replace(/~1/g, "/").replace(/~0/g, "~")]), doc);
  return resolve(doc, target, seen);
}

/** The schemas a value of `schema` may be (allOf merged by listing every part, oneOf/anyOf as alternatives). */
function variants(doc, schema) {
  const s = resolve(doc, schema);
  if (!s || typeof s !== "object") return [];
  const out = [s];
  for (const key of ["allOf", "oneOf", "anyOf"]) for (const part of s[key] ?? []) out.push(...variants(doc, part));
  return out;
}

/** Whether `field` (`a`, `a.b`, `data[].c`) names something `schema` has. */
export function hasField(doc, schema, field) {
  let current = [schema];
  for (const segment of field.split(".")) {
    const m = /^([^[\]]+)((?:\[\])*)$/.exec(segment);
    if (!m) return false;
    let next = [];
    for (const v of current.flatMap((s) => variants(doc, s))) {
      if (v.properties && Object.hasOwn(v.properties, m[1])) next.push(v.properties[m[1]]);
    }
    for (let depth = 0; depth < m[2].length / 2; depth++) {
      next = next.flatMap((s) => variants(doc, s)).flatMap((v) => (v.type === "array" || v.items ? [v.items] : []));
    }
    if (next.length === 0) return false;
    current = next;
  }
  return true;
}

const jsonSchema = (response) => response?.content?.["application/json"]?.schema;

/** The problems of one client's calls against the document: [] when it is true to it. `results` gets one entry per call. */
export function checkCalls(doc, calls) {
  const problems = [];
  const results = [];
  if (!calls || !Array.isArray(calls.calls)) return { problems: ["the file has no `calls` list"], results };
  const operations = new Map();
  for (const [p, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item))
      if (METHODS.has(method)) operations.set(`${method} ${shape(p)}`, { op, path: p, item });
  }
  const errorSchemas = [];
  for (const call of calls.calls) {
    const label = `${String(call?.method).toUpperCase()} ${call?.path}`;
    const own = [];
    const strings = (v) => v === undefined || (Array.isArray(v) && v.every((f) => typeof f === "string"));
    if (typeof call?.method !== "string" || !METHODS.has(call.method.toLowerCase()) || typeof call.path !== "string") {
      own.push(`${label}: a call needs a method (GET, POST, PUT, PATCH, DELETE) and a path`);
    } else if (!strings(call.request) || !strings(call.response)) {
      own.push(`${label}: request and response are lists of field names`);
    } else {
      const found = operations.get(`${call.method.toLowerCase()} ${shape(call.path)}`);
      if (!found) own.push(`${label}: no such operation in the OpenAPI document`);
      else {
        const { op, item } = found;
        const params = new Set([...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => resolve(doc, p)?.name));
        // a path parameter may go by the client's own name: the shapes of the paths matched
        for (const m of call.path.matchAll(/\{([^}]+)\}|:([A-Za-z_]\w*)/g)) params.add(m[1] ?? m[2]);
        const body = jsonSchema(resolve(doc, op.requestBody));
        for (const field of call.request ?? []) {
          const ok =
            (!field.includes(".") && !field.includes("[") && params.has(field)) || (body !== undefined && hasField(doc, body, field));
          if (!ok) own.push(`${label}: the request has no field ${field}`);
        }
        const responses = Object.entries(op.responses ?? {}).map(([status, r]) => [status, resolve(doc, r)]);
        const ok2xx = responses
          .filter(([status]) => /^2/.test(status))
          .map(([, r]) => jsonSchema(r))
          .filter(Boolean);
        for (const field of call.response ?? []) {
          if (!ok2xx.some((schema) => hasField(doc, schema, field))) own.push(`${label}: the 2xx answer has no field ${field}`);
        }
        errorSchemas.push(
          ...responses
            .filter(([status]) => /^[45]/.test(status))
            .map(([, r]) => jsonSchema(r))
            .filter(Boolean),
        );
      }
    }
    results.push({ call: label, problems: own });
    problems.push(...own);
  }
  if (calls.errors !== undefined) {
    const own = [];
    if (!Array.isArray(calls.errors) || !calls.errors.every((f) => typeof f === "string")) own.push("errors: a list of field names");
    else
      for (const field of calls.errors)
        if (!errorSchemas.some((s) => hasField(doc, s, field))) own.push(`errors: no error answer has a field ${field}`);
    results.push({ call: "error answers", problems: own });
    problems.push(...own);
  }
  return { problems, results };
}

function main() {
  const doc = servedDocument();
  let passed = 0;
  let failed = 0;
  const files = callFiles();
  for (const file of files) {
    const name = path.relative(ROOT, file);
    let calls;
    try {
      calls = JSON.parse(readFileSync(file, "utf8"));
    } catch (err) {
      process.stdout.write(`[client-calls] FAIL ${name}: not JSON (${err.message})\n`);
      failed++;
      continue;
    }
    const { problems, results } = checkCalls(doc, calls);
    const good = results.filter((r) => r.problems.length === 0).length;
    passed += good;
    failed += results.length - good + (results.length === 0 ? 1 : 0);
    if (problems.length === 0 && results.length > 0) {
      process.stdout.write(`[client-calls] ok   ${name}: ${results.length} checks, true to the OpenAPI document\n`);
    } else {
      for (const p of problems) process.stdout.write(`[client-calls] FAIL ${name}: ${p}\n`);
      process.stdout.write(
        `[client-calls]      the document changed under a client's call: change the client (and its openapi-calls.json), or keep the contract\n`,
      );
    }
  }
  if (files.length === 0) process.stdout.write("[client-calls] no packages/sdk-*/openapi-calls.json to check\n");
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  process.exit(failed === 0 ? 0 : 1);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) main();
