import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from "express";
import request from "supertest";
import { apiGatewayServiceRoutes, expressPath } from "@burnbox/contracts";
import { firstSegment, routeDispatcher } from "./forwarding";
import { FORWARDED_ROUTES, type ForwardedRoute } from "./route-table";

/** Answers with what the gateway's handler and its metrics/logs would see of the matched route. */
const answer = (route: ForwardedRoute) => (req: Request, res: Response) => {
  res.json({
    op: route.operationId,
    route: (req.route as { path?: string } | undefined)?.path,
    baseUrl: req.baseUrl,
    params: req.params,
  });
};

/** Mounted as the gateway mounts it (under /api/v1, in a router), with the kit's 404 and error ends. */
function appWith(forwarding: RequestHandler) {
  const app = express();
  const api = Router();
  api.use(forwarding);
  app.use("/api/v1", api);
  app.use((_req: Request, res: Response) => {
    res.status(404).json({ error: "route not found" });
  });
  app.use((err: { status?: number }, _req: Request, res: Response, _next: NextFunction) => {
    res.status(err.status ?? 500).json({ error: "failed" });
  });
  return app;
}

/** The reference: every route in one express router, in the table's order (what the gateway had). */
function oneRouter(): Router {
  const router = Router();
  for (const route of FORWARDED_ROUTES) router[route.method](expressPath(route.path), answer(route));
  return router;
}

const concrete = (route: ForwardedRoute) => `/api/v1${route.path.replace(/\{[A-Za-z0-9_]+\}/g, "p%20x")}`;

describe("routing of forwarded operations, one router per first segment", () => {
  const reference = appWith(oneRouter());
  const dispatched = appWith(routeDispatcher(FORWARDED_ROUTES, answer));

  const same = async (method: string, path: string) => {
    const call = (app: express.Express) => request(app)[method.toLowerCase() as "get"](path);
    const [want, got] = await Promise.all([call(reference), call(dispatched)]);
    expect({ method, path, status: got.status, body: got.body, allow: got.headers.allow }).toEqual({
      method,
      path,
      status: want.status,
      body: want.body,
      allow: want.headers.allow,
    });
    return got;
  };

  it("when every operation is called, then the same route answers as with one router, with its pattern, base and params", async () => {
    for (const route of FORWARDED_ROUTES) {
      const got = await same(route.method, concrete(route));
      expect(got.status).toBe(200);
    }
    // the one of the benchmark: the 132nd route of the table
    const got = await same("get", "/api/v1/inboxes/abc");
    expect(got.body).toEqual({ op: "getInbox", route: "/inboxes/:id", baseUrl: "/api/v1", params: { id: "abc" } });
  });

  it("when a path differs in case, ends in a slash, or asks HEAD or OPTIONS, then the answer is the one router's", async () => {
    for (const route of FORWARDED_ROUTES) {
      const path = concrete(route);
      await same(route.method, path.toUpperCase().replace("/API/V1", "/api/v1"));
      await same(route.method, `${path}/`);
      await same("options", path);
      if (route.method === "get") await same("head", path);
    }
  });

  it("when no route matches or a parameter does not percent-decode, then the answer is the one router's (404 / 400)", async () => {
    const paths = [
      "/api/v1",
      "/api/v1/",
      "/api/v1/nope",
      "/api/v1//inboxes",
      "/api/v1/inboxes/a/b/c/d",
      "/api/v1/%69nboxes/x",
      "/api/v1/inboxes/%E0%A4%A",
      "/api/v1/orgs/%ZZ/teams",
      "/api/v1/inboxes/x?y=/z",
    ];
    for (const path of paths) for (const method of ["get", "post", "delete", "options"]) await same(method, path);
    expect((await same("get", "/api/v1/inboxes/%E0%A4%A")).status).toBe(400);
    expect((await same("get", "/api/v1/nope")).status).toBe(404);
  });

  it("when the gateway's own routes (docs) are served after the forwarded ones, then no forwarded route can take their paths", () => {
    const own = new Set(apiGatewayServiceRoutes.map((r) => firstSegment(expressPath(r.path))));
    expect(own).toEqual(new Set(["docs"]));
    expect(FORWARDED_ROUTES.filter((r) => own.has(firstSegment(expressPath(r.path))))).toEqual([]);
  });

  it("reads the first segment of a path in lower case", () => {
    expect(firstSegment("/Inboxes/123")).toBe("inboxes");
    expect(firstSegment("/inboxes")).toBe("inboxes");
    expect(firstSegment("/")).toBe("");
    expect(firstSegment("//x")).toBe("");
  });

  it("refuses a route that does not begin with a literal segment", () => {
    expect(() => routeDispatcher([{ method: "get", path: "/{id}" }], () => (_req, res) => res.end())).toThrow(/literal segment/);
  });
});
