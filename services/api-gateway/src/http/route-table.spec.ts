import { randomUUID } from "node:crypto";
import { ROUTES, TEAM_PERMISSIONS, type Actor, type RouteAuth, type RouteDef } from "@burnbox/contracts";
import { authorizeRoute } from "./route-table";

const user = (over: Partial<Actor> = {}): Actor => ({
  user_id: randomUUID(),
  email: "u@example.test",
  is_system_admin: false,
  session_id: randomUUID(),
  api_key: null,
  ...over,
});
/** An API key acting as its creator (a system admin here, to prove keys never carry that right). */
const key = (scopes: string[]): Actor =>
  user({ session_id: null, is_system_admin: true, api_key: { id: randomUUID(), team_id: randomUUID(), scopes } });

const routesOf = (auth: RouteAuth, pick: (r: RouteDef) => boolean = () => true) => {
  const found = ROUTES.filter((r) => r.auth === auth && pick(r));
  expect(found.length).toBeGreaterThan(0);
  return found;
};
const outcome = (route: RouteDef, actor: Actor | null) => {
  const refused = authorizeRoute(route, actor);
  return refused ? { status: refused.status, message: refused.message } : "allowed";
};
const UNAUTHENTICATED = { status: 401, message: "authentication required" };
const INSUFFICIENT_SCOPE = { status: 403, message: "insufficient scope" };

describe("authorizeRoute on the real route table", () => {
  it("when a public route is called, then anyone passes: nobody, a user, a key without scopes", () => {
    for (const r of routesOf("public")) {
      expect([outcome(r, null), outcome(r, user()), outcome(r, key([]))]).toEqual(["allowed", "allowed", "allowed"]);
    }
  });

  it("when a scoped user route is called, then a JWT passes, a key passes only with that scope, nobody gets 401", () => {
    for (const r of routesOf("user", (x) => x.scope !== undefined)) {
      const others = TEAM_PERMISSIONS.filter((p) => p !== r.scope);
      expect(outcome(r, user())).toBe("allowed");
      expect(outcome(r, key([r.scope as string]))).toBe("allowed");
      expect(outcome(r, key(others))).toEqual(INSUFFICIENT_SCOPE);
      expect(outcome(r, null)).toEqual(UNAUTHENTICATED);
    }
  });

  it("when a user route has no scope (org level), then a JWT passes and a key holding every team permission is refused", () => {
    for (const r of routesOf("user", (x) => x.scope === undefined)) {
      expect(outcome(r, user())).toBe("allowed");
      expect(outcome(r, key([...TEAM_PERMISSIONS]))).toEqual(INSUFFICIENT_SCOPE);
      expect(outcome(r, null)).toEqual(UNAUTHENTICATED);
    }
  });

  it("when an authenticated route is called, then a JWT or any key passes and nobody gets 401", () => {
    for (const r of routesOf("authenticated")) {
      expect([outcome(r, user()), outcome(r, key([]))]).toEqual(["allowed", "allowed"]);
      expect(outcome(r, null)).toEqual(UNAUTHENTICATED);
    }
  });

  it("when an account route (user only) is called, then a JWT passes and a key with every permission is refused", () => {
    for (const r of routesOf("user_only")) {
      expect(outcome(r, user())).toBe("allowed");
      expect(outcome(r, key([...TEAM_PERMISSIONS]))).toEqual(INSUFFICIENT_SCOPE);
      expect(outcome(r, null)).toEqual(UNAUTHENTICATED);
    }
  });

  it("when a system-admin route is called, then only an admin's JWT passes; an admin creator's key is refused", () => {
    for (const r of routesOf("system_admin")) {
      expect(outcome(r, user({ is_system_admin: true }))).toBe("allowed");
      expect(outcome(r, user())).toEqual({ status: 403, message: "system admin required" });
      expect(outcome(r, key([...TEAM_PERMISSIONS]))).toEqual(INSUFFICIENT_SCOPE);
      expect(outcome(r, null)).toEqual(UNAUTHENTICATED);
    }
  });
});
