import { Router } from "express";
import { IdParams, PaginationQuery } from "@burnbox/contracts";
import { actorOf, parseParams, parseQuery } from "@burnbox/service-kit";
import type { IdentityDeps } from "../domain/deps";
import { listSessions, revokeOtherSessions, revokeOwnSession } from "../domain/sessions.use-case";

export function sessionsRouter(deps: IdentityDeps): Router {
  const r = Router();
  r.get("/auth/sessions", async (req, res) => {
    res.json(await listSessions(deps, actorOf(req), parseQuery(PaginationQuery, req)));
  });
  r.delete("/auth/sessions/:id", async (req, res) => {
    await revokeOwnSession(deps, actorOf(req), parseParams(IdParams, req).id);
    res.json({ message: "session revoked" });
  });
  r.delete("/auth/sessions", async (req, res) => {
    const n = await revokeOtherSessions(deps, actorOf(req));
    res.json({ message: `${n} other session(s) revoked` });
  });
  return r;
}
