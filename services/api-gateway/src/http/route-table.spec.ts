import type { Actor, RouteDef } from "@burnbox/contracts";
import { ROUTES } from "@burnbox/contracts";
import { authorizeRoute, FORWARDED_ROUTES } from "./route-table";

const user: Actor = {
  user_id: "5b0a3f7e-3f6c-4f7e-9d55-1f1d1d1d1d1d",
  email: "u@x.test",
  is_system_admin: false,
  session_id: "s",
  api_key: null,
};
const key = (scopes: string[]): Actor => ({
  ...user,
  session_id: null,
  api_key: { id: "6b0a3f7e-3f6c-4f7e-9d55-1f1d1d1d1d1d", team_id: "7b0a3f7e-3f6c-4f7e-9d55-1f1d1d1d1d1d", scopes },
});
const route = (over: Partial<RouteDef>): RouteDef => ({
  operationId: "x",
  method: "get",
  path: "/x",
  service: "inbox",
  auth: "user",
  tag: "t",
  summary: "s",
  responses: {},
  ...over,
});

describe("authorizeRoute", () => {
  it("when a key holds the route's scope, then it passes", () => {
    expect(authorizeRoute(route({ scope: "team.inboxes.view" }), key(["team.inboxes.view"]))).toBeNull();
  });

  it("when a key lacks the route's scope, then 403 insufficient scope", () => {
    expect(authorizeRoute(route({ scope: "team.webhooks.view" }), key(["team.inboxes.view"]))).toMatchObject({
      status: 403,
      message: "insufficient scope",
    });
  });

  it("when a route has no scope, then keys are refused but users pass", () => {
    expect(authorizeRoute(route({}), key(["team.view"]))).toMatchObject({ status: 403 });
    expect(authorizeRoute(route({}), user)).toBeNull();
  });

  it("when a key calls a system-admin route, then it is refused even for an admin creator", () => {
    expect(authorizeRoute(route({ auth: "system_admin" }), { ...key([]), is_system_admin: true })).toMatchObject({ status: 403 });
    expect(authorizeRoute(route({ auth: "system_admin" }), { ...user, is_system_admin: true })).toBeNull();
  });

  it("when nobody is signed in, then only public routes pass", () => {
    expect(authorizeRoute(route({ auth: "public" }), null)).toBeNull();
    expect(authorizeRoute(route({ auth: "user_only" }), null)).toMatchObject({ status: 401 });
  });

  it("when the table is built, then every forwarded route belongs to a service and scopes are team permissions", () => {
    expect(FORWARDED_ROUTES.length).toBe(ROUTES.filter((r) => r.service !== "api-gateway").length);
    for (const r of ROUTES) if (r.scope) expect(r.scope.startsWith("team.")).toBe(true);
  });
});
