import { defineRoutes, z } from "@burnbox/contracts";
import { createHttpApp, finalizeHttpApp, listen, type RunningServer } from "./http";
import { createLogger } from "../core/logger";
import { bindRoutes, reply } from "./routes";

const logger = createLogger({ level: "silent", service: "test" });

const routes = defineRoutes({ service: "inbox", tag: "Test" }, [
  {
    operationId: "getThing",
    method: "get",
    path: "/things/{id}",
    auth: "public",
    summary: "s",
    request: {
      params: z.object({ id: z.string().uuid() }),
      query: z.object({ full: z.enum(["yes", "no"]).optional(), page: z.string().optional() }),
    },
    responses: { 200: { description: "ok" } },
  },
  {
    operationId: "createThing",
    method: "post",
    path: "/things",
    auth: "public",
    summary: "s",
    request: { body: z.object({ name: z.string().min(1) }) },
    responses: { 201: { description: "created" }, 202: { description: "queued" } },
  },
  {
    operationId: "deleteThing",
    method: "delete",
    path: "/things/{id}",
    auth: "user",
    summary: "s",
    request: { params: z.object({ id: z.string().uuid() }) },
    responses: { 204: { description: "gone" } },
  },
] as const);

const ID = "1b2c3d4e-0000-4000-8000-000000000001";
let server: RunningServer;
const calls: unknown[] = [];

beforeAll(async () => {
  const app = createHttpApp({ logger });
  app.use(
    bindRoutes(routes, {
      getThing: async ({ params, query }) => ({ id: params.id, full: query.full ?? null }),
      createThing: async ({ body }) => (body.name === "later" ? reply(202, { queued: true }) : { name: body.name }),
      deleteThing: async ({ params }) => {
        calls.push(params.id);
        return undefined;
      },
    }),
  );
  finalizeHttpApp(app, logger);
  server = await listen(app, 0, "127.0.0.1");
});
afterAll(() => server.close());

const call = (method: string, path: string, body?: unknown) =>
  fetch(`http://127.0.0.1:${server.port}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
  });

describe("bindRoutes", () => {
  it("when the path and query match the contract, then the handler gets them parsed and its result is sent with the route's 2xx", async () => {
    const res = await call("GET", `/things/${ID}?full=yes`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: ID, full: "yes" });
  });

  it("when a path parameter fails its schema, then 400 in the envelope names the path", async () => {
    const res = await call("GET", "/things/not-a-uuid");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "validation_error", error: expect.stringContaining("path id") });
  });

  it("when the query fails its schema, then 400", async () => {
    const res = await call("GET", `/things/${ID}?full=maybe`);
    expect(res.status).toBe(400);
  });

  it("when a body is valid, then the route's success status (201) is used", async () => {
    const res = await call("POST", "/things", { name: "a" });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ name: "a" });
  });

  it("when a handler returns reply(202, ...), then that status is sent", async () => {
    const res = await call("POST", "/things", { name: "later" });
    expect(res.status).toBe(202);
  });

  it("when the body fails its schema, then 400 and the handler is not called", async () => {
    const res = await call("POST", "/things", { name: "" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "validation_error", error: expect.stringContaining("body name") });
  });

  it("when a non-public route is called without an internal context actor, then 401 and the handler is not called", async () => {
    const res = await call("DELETE", `/things/${ID}`);
    expect(res.status).toBe(401);
    expect(calls).toEqual([]);
  });

  it("when a handler is missing at run time (a cast around the types), then binding throws", () => {
    expect(() => bindRoutes(routes, {} as never)).toThrow("no handler for getThing");
  });

  it("when a path parameter is a malformed percent-escape, then 400 validation_error, not 500", async () => {
    for (const bad of ["%", "%E0%A4%A", "%zz"]) {
      const res = await call("GET", `/things/${bad}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: "validation_error" });
    }
  });

  it("when a JSON string holds a NUL or an unpaired surrogate, then 400 naming the field and the handler is not called", async () => {
    for (const raw of ['{"name":"a\\u0000b"}', '{"name":"x\\ud800y"}', '{"name":"x\\udc00"}']) {
      const res = await fetch(`http://127.0.0.1:${server.port}/things`, {
        method: "POST",
        body: raw,
        headers: { "content-type": "application/json" },
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: "validation_error", error: expect.stringContaining("body name") });
    }
  });

  it("when a paired surrogate (an emoji) or RTL text is sent, then it is accepted as is", async () => {
    const res = await call("POST", "/things", { name: "\u{1F600} \u05e9\u05dc\u05d5\u05dd" });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ name: "\u{1F600} \u05e9\u05dc\u05d5\u05dd" });
  });

  it("when a query value holds a NUL, then 400", async () => {
    const res = await call("GET", `/things/${ID}?page=%00%01`);
    expect(res.status).toBe(400);
  });

  it("when a scalar query parameter is sent as an array (page[]=1&page[]=2 or page=1&page=2), then 400", async () => {
    for (const q of ["page[]=1&page[]=2", "page[]=1", "page=1&page=2", "page[a]=1"]) {
      const res = await call("GET", `/things/${ID}?${q}`);
      expect(res.status).toBe(400);
    }
  });

  it("when the request headers exceed the server's limit, then 431 in the envelope", async () => {
    const res = await fetch(`http://127.0.0.1:${server.port}/things/${ID}`, { headers: { "x-big": "a".repeat(20_000) } });
    expect(res.status).toBe(431);
    expect(await res.json()).toEqual({ error: "request header fields too large", code: "error" });
  });

  it("when a JSON route gets a text, XML or form body, then 415 in the envelope and the handler is not called", async () => {
    for (const [type, body] of [
      ["text/plain", '{"name":"a"}'],
      ["application/xml", "<name>a</name>"],
      ["application/x-www-form-urlencoded", "name=a"],
    ] as const) {
      const res = await fetch(`http://127.0.0.1:${server.port}/things`, { method: "POST", body, headers: { "content-type": type } });
      expect(res.status).toBe(415);
      expect(await res.json()).toEqual({ error: "request body must be JSON (Content-Type: application/json)", code: "error" });
    }
  });

  it("when the JSON content type carries a charset, then the body is accepted", async () => {
    const res = await fetch(`http://127.0.0.1:${server.port}/things`, {
      method: "POST",
      body: '{"name":"b"}',
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expect(res.status).toBe(201);
  });
});
