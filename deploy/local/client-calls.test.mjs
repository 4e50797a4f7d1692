// The check of the clients' calls against the OpenAPI document (client-calls.mjs): it finds what
// is missing, and lets through what is there however the document spells it.
//
//   node deploy/local/client-calls.test.mjs      prints `N passed, N failed`
import { readFileSync } from "node:fs";
import path from "node:path";
import { callFiles, checkCalls, servedDocument } from "./client-calls.mjs";
import { ROOT } from "./lib.mjs";

let passed = 0;
let failed = 0;
function check(ok, what, output) {
  process.stdout.write(`[client-calls] ${ok ? "ok  " : "FAIL"} ${what}\n`);
  if (ok) passed++;
  else {
    failed++;
    process.stdout.write(`${output}\n`);
  }
}
const json = (schema) => ({ content: { "application/json": { schema } } });
const DOC = {
  paths: {
    "/things/{thingId}": {
      parameters: [{ name: "thingId", in: "path" }],
      get: {
        parameters: [{ $ref: "#/components/parameters/Verbose" }],
        responses: { 200: json({ $ref: "#/components/schemas/Thing" }), 404: json({ $ref: "#/components/schemas/Error" }) },
      },
      delete: { responses: { 204: { description: "Deleted" } } },
    },
    "/things": {
      post: {
        requestBody: json({
          allOf: [{ $ref: "#/components/schemas/NewThing" }, { type: "object", properties: { tags: { type: "array" } } }],
        }),
        responses: { 201: json({ $ref: "#/components/schemas/Thing" }), 429: json({ $ref: "#/components/schemas/RateLimited" }) },
      },
    },
  },
  components: {
    parameters: { Verbose: { name: "verbose", in: "query" } },
    schemas: {
      NewThing: { type: "object", properties: { name: { type: "string" } } },
      Thing: {
        allOf: [
          { $ref: "#/components/schemas/NewThing" },
          {
            type: "object",
            properties: {
              id: { type: "string" },
              parts: { type: "array", items: { oneOf: [{ $ref: "#/components/schemas/Part" }, { type: "null" }] } },
              owner: { type: "object", properties: { id: { type: "string" } }, nullable: true },
            },
          },
        ],
      },
      Part: { type: "object", properties: { value: { type: "string" } } },
      Error: { type: "object", properties: { code: { type: "string" }, error: { type: "string" } } },
      RateLimited: { type: "object", properties: { error: { type: "string" }, retry_after: { type: "number" } } },
    },
  },
};
const problems = (calls) => checkCalls(DOC, calls).problems;
const one = (call) => problems({ calls: [call] });

const good = {
  calls: [
    { method: "GET", path: "/things/{id}", request: ["id", "verbose"], response: ["id", "name", "parts", "parts[].value", "owner.id"] },
    { method: "post", path: "/api/v1/things", request: ["name", "tags"], response: ["id"] },
    { method: "DELETE", path: "/things/:id", request: [], response: [] },
  ],
  errors: ["code", "retry_after"],
};
const r = checkCalls(DOC, good);
check(
  r.problems.length === 0 && r.results.length === 4,
  "when every call, field and error field is in the document (refs, allOf, oneOf, params of the path item, other param names, /api/v1), then nothing is reported",
  JSON.stringify(r),
);
check(
  one({ method: "GET", path: "/things" })[0] === "GET /things: no such operation in the OpenAPI document",
  "when a call's method is not served at its path, then it is reported as a missing operation",
  JSON.stringify(one({ method: "GET", path: "/things" })),
);
check(
  one({ method: "GET", path: "/things/{id}/parts" }).length === 1,
  "when a call's path is not in the document, then it is reported",
  JSON.stringify(one({ method: "GET", path: "/things/{id}/parts" })),
);
const fields = one({ method: "POST", path: "/things", request: ["name", "colour", "id"], response: ["id", "size", "parts[].value"] });
check(
  JSON.stringify(fields) ===
    JSON.stringify([
      "POST /things: the request has no field colour",
      "POST /things: the request has no field id",
      "POST /things: the 2xx answer has no field size",
    ]),
  "when a field sent is neither a parameter nor in the body, or a field read is not in the 2xx answer, then each is reported",
  JSON.stringify(fields),
);
const nested = one({ method: "GET", path: "/things/{id}", response: ["parts[].size", "name[]", "owner.name", "id.x"] });
check(
  nested.length === 4,
  "when a path into the answer names a missing property, steps into something that is not an array, or into a string, then it is reported",
  JSON.stringify(nested),
);
check(
  one({ method: "DELETE", path: "/things/{id}", response: ["id"] }).length === 1,
  "when a field is read from an answer without a body (204), then it is reported",
  "",
);
check(
  problems({ calls: [good.calls[0]], errors: ["code", "retry_after"] })[0] === "errors: no error answer has a field retry_after",
  "when an error field is only in the error answers of operations the client does not list, then it is reported",
  JSON.stringify(problems({ calls: [good.calls[0]], errors: ["code", "retry_after"] })),
);
check(
  problems({}).length === 1 &&
    one({ method: "FETCH", path: "/things" }).length === 1 &&
    one({ method: "GET", path: "/things/{id}", request: "id" }).length === 1,
  "when the file or a call is malformed, then it is reported",
  "",
);

// the real document and the files of the repository
const served = servedDocument();
const files = callFiles();
check(
  files.some((f) => f.endsWith(path.join("sdk-python", "openapi-calls.json"))),
  "when the packages are listed, then packages/sdk-python is among them",
  files.join("\n"),
);
const python = JSON.parse(readFileSync(path.join(ROOT, "packages", "sdk-python", "openapi-calls.json"), "utf8"));
const real = checkCalls(served, python);
check(
  real.problems.length === 0,
  "when the Python client's calls are checked against the served document, then they hold",
  real.problems.join("\n"),
);
const changed = structuredClone(served);
const result = changed.components.schemas.WaitForEmailsResult;
result.properties.timedOut = result.properties.timed_out;
delete result.properties.timed_out;
const broken = checkCalls(changed, python).problems;
check(
  broken.length === 1 && broken[0] === "GET /inboxes/{id}/emails/wait: the 2xx answer has no field timed_out",
  "when the served document renames a field the Python client reads, then the check names the call and the field",
  broken.join("\n"),
);

process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
