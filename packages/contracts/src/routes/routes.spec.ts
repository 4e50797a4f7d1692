import { ROUTES } from ".";
import { identityServiceRoutes } from "../identity";
import { SERVICES, successStatus, type RouteDef } from "./route";

const pathParams = (path: string) => [...path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]);
const named = (r: RouteDef) => `${r.operationId} (${r.method.toUpperCase()} ${r.path})`;

describe("the route table", () => {
  it("when every operationId is collected, then none repeats", () => {
    const ids = ROUTES.map((r) => r.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it("when every method and path is collected, then no pair repeats", () => {
    const keys = ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });

  it.each(ROUTES.map((r) => [named(r), r] as const))("when %s is read, then its path and params schema name the same keys", (_, r) => {
    const inPath = pathParams(r.path).sort();
    const inSchema = Object.keys(r.request?.params?.shape ?? {}).sort();
    expect(inSchema).toEqual(inPath);
  });

  // a redirect route (the SSO login and callback answer 302 by spec) declares its 3xx instead
  const redirects = (r: (typeof ROUTES)[number]) => Object.keys(r.responses).some((s) => Number(s) >= 300 && Number(s) < 400);
  it.each(ROUTES.filter((r) => !redirects(r)).map((r) => [named(r), r] as const))(
    "when %s is read, then it declares a 2xx response",
    (_, r) => {
      const status = successStatus(r);
      expect(status).toBeGreaterThanOrEqual(200);
      expect(status).toBeLessThan(300);
      expect(r.responses[status]).toBeDefined();
    },
  );

  it("when every service is listed, then each one serves at least one route", () => {
    expect(SERVICES.filter((s) => !ROUTES.some((r) => r.service === s))).toEqual([]);
  });

  it("when API key routes are looked up, then identity serves them", () => {
    expect(identityServiceRoutes.map((r) => r.operationId)).toContain("createApiKey");
    expect(ROUTES.filter((r) => r.path.includes("/api-keys")).every((r) => r.service === "identity")).toBe(true);
  });
});
