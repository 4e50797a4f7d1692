import { defineRoutes } from "./route";

const route = { method: "get", path: "/x", auth: "public", summary: "s", responses: { 200: { description: "ok" } } } as const;

describe("defineRoutes", () => {
  it("when a file states service and tag once, then every route carries them", () => {
    const routes = defineRoutes({ service: "tenancy", tag: "Orgs" }, [{ ...route, operationId: "a" }] as const);
    expect(routes[0]).toMatchObject({ operationId: "a", service: "tenancy", tag: "Orgs" });
  });

  it("when a route states its own tag, then it keeps it", () => {
    const routes = defineRoutes({ service: "tenancy", tag: "Orgs" }, [{ ...route, operationId: "b", tag: "Teams" }] as const);
    expect(routes[0].tag).toBe("Teams");
  });
});
