import { Router } from "express";
import { CreateWebhookBody, TeamParams } from "@burnbox/contracts";
import { actorOf, clientIpOf, parseBody, parseParams } from "@burnbox/service-kit";
import type { DispatcherDeps } from "../domain/deps";
import { createWebhook } from "../domain/webhooks.use-case";

export function webhooksRouter(deps: DispatcherDeps): Router {
  const r = Router();
  r.post("/orgs/:orgId/teams/:teamId/webhooks", async (req, res) => {
    const { orgId, teamId } = parseParams(TeamParams, req);
    res.status(201).json(await createWebhook(deps, actorOf(req), orgId, teamId, parseBody(CreateWebhookBody, req), clientIpOf(req)));
  });
  return r;
}
