import { Router } from "express";
import { AdminUpdateUserBody, IdParams, MigrateAuthBody, PaginationQuery, UpdatePlatformBody } from "@burnbox/contracts";
import { actorOf, clientIpOf, parseBody, parseParams, parseQuery } from "@burnbox/service-kit";
import {
  adminDeleteUser,
  adminMigrateAuth,
  adminRevokeSessions,
  adminUpdateUser,
  getPlatform,
  updatePlatform,
} from "../domain/admin.use-case";
import { adminListUsers } from "../domain/auth.use-case";
import type { IdentityDeps } from "../domain/deps";

export function adminRouter(deps: IdentityDeps): Router {
  const r = Router();
  r.get("/admin/users", async (req, res) => {
    res.json(await adminListUsers(deps, actorOf(req), parseQuery(PaginationQuery, req)));
  });
  r.patch("/admin/users/:id", async (req, res) => {
    res.json(
      await adminUpdateUser(deps, actorOf(req), parseParams(IdParams, req).id, parseBody(AdminUpdateUserBody, req), clientIpOf(req)),
    );
  });
  r.delete("/admin/users/:id", async (req, res) => {
    await adminDeleteUser(deps, actorOf(req), parseParams(IdParams, req).id, clientIpOf(req));
    res.json({ message: "user deleted" });
  });
  r.delete("/admin/users/:id/sessions", async (req, res) => {
    await adminRevokeSessions(deps, actorOf(req), parseParams(IdParams, req).id, clientIpOf(req));
    res.status(204).end();
  });
  r.post("/admin/users/:id/migrate-auth", async (req, res) => {
    res.json(await adminMigrateAuth(deps, actorOf(req), parseParams(IdParams, req).id, parseBody(MigrateAuthBody, req), clientIpOf(req)));
  });
  r.get("/admin/platform", async (req, res) => {
    res.json(await getPlatform(deps, actorOf(req)));
  });
  r.put("/admin/platform", async (req, res) => {
    res.json(await updatePlatform(deps, actorOf(req), parseBody(UpdatePlatformBody, req), clientIpOf(req)));
  });
  return r;
}
