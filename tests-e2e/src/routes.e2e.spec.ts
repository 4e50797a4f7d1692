import { randomBytes, randomUUID } from "node:crypto";
import { ROUTES } from "@burnbox/contracts";
import { apiClient } from "./clients";
import { SharedSystem } from "./shared-system";
import { newClientIp, registerAdmin, registerUser } from "./world";

/** A path parameter of the right shape: ids are UUIDs, anything else (tokens) random hex. */
const fill = (path: string) =>
  path.replace(/\{([A-Za-z0-9_]+)\}/g, (_m, name: string) => (/id$/i.test(name) ? randomUUID() : randomBytes(16).toString("hex")));

/** Operations that may end the caller's own sessions: each gets a user of its own, so the others keep a valid token. */
const ENDS_THE_CALLERS_SESSION = new Set(["DELETE /auth/sessions", "POST /auth/logout", "DELETE /auth/me"]);

/**
 * The guard of the route table: every operation of the contracts is served by the service that
 * owns it. A request of the right method and path shape (no body, unknown ids) reaches the
 * service, whose answer may be anything but the "route not found" that the gateway, or a
 * service that never mounted the operation, answers for a path it does not serve.
 */
const isHealthReport = (body: unknown): boolean =>
  typeof body === "object" && body !== null && "services" in body && (body as { status?: unknown }).status === "degraded";

describe("the contract's operations through the gateway", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);

  it("when every operation in ROUTES is called with a valid token, then each is answered by its service, none with route not found", async () => {
    // a system admin passes every kind of route auth (public, user, user-only, system admin)
    const admin = await registerAdmin(api, system);
    const ip = newClientIp();
    const answers: Array<{ operation: string; service: string; status: number; body: unknown }> = [];
    for (const route of ROUTES) {
      const operation = `${route.method.toUpperCase()} ${route.path}`;
      const token = ENDS_THE_CALLERS_SESSION.has(operation) ? (await registerUser(api, "throwaway")).token : admin.token;
      const res = await api(route.method.toUpperCase(), fill(route.path), { token, headers: { "x-forwarded-for": ip } });
      answers.push({ operation, service: route.service, status: res.status, body: res.body });
    }
    const unserved = answers.filter(
      (a) =>
        (a.body as { error?: unknown } | null)?.error === "route not found" ||
        a.status === 429 || // refused by the gateway's limiter before reaching anyone
        // 502-504: the gateway did not reach the service; 500: the service failed on a well-formed request.
        // Health's 503 with its report is an answer (another file may leave a saved mailer the probe refuses).
        (a.status >= 500 && !(a.operation === "GET /admin/health" && a.status === 503 && isHealthReport(a.body))),
    );
    expect(unserved).toEqual([]);
    expect(answers.length).toBe(ROUTES.length);
    // the admin's token stayed valid throughout, so no answer above was the gateway refusing it
    expect((await api("GET", "/auth/me", { token: admin.token })).status).toBe(200);
  });
});
