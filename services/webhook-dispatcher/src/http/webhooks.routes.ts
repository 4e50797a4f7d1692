import { Router, type Request } from "express";
import { CreateWebhookBody, PaginationQuery, TeamParams, UpdateWebhookBody, WebhookParams } from "@burnbox/contracts";
import { actorOf, clientIpOf, parseBody, parseParams, parseQuery } from "@burnbox/service-kit";
import type { DispatcherDeps } from "../domain/deps";
import {
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  updateWebhook,
  webhookStats,
  type TeamRef,
} from "../domain/webhooks.use-case";

const BASE = "/orgs/:orgId/teams/:teamId/webhooks";

const teamOf = (req: Request): TeamRef => {
  const { orgId, teamId } = parseParams(TeamParams, req);
  return { orgId, teamId };
};
const hookOf = (req: Request) => parseParams(WebhookParams, req).webhookId;

export function webhooksRouter(deps: DispatcherDeps): Router {
  const r = Router();
  r.post(BASE, async (req, res) => {
    const { orgId, teamId } = teamOf(req);
    res.status(201).json(await createWebhook(deps, actorOf(req), orgId, teamId, parseBody(CreateWebhookBody, req), clientIpOf(req)));
  });
  r.get(BASE, async (req, res) => {
    res.json(await listWebhooks(deps, actorOf(req), teamOf(req), parseQuery(PaginationQuery, req)));
  });
  r.patch(`${BASE}/:webhookId`, async (req, res) => {
    res.json(await updateWebhook(deps, actorOf(req), teamOf(req), hookOf(req), parseBody(UpdateWebhookBody, req), clientIpOf(req)));
  });
  r.delete(`${BASE}/:webhookId`, async (req, res) => {
    await deleteWebhook(deps, actorOf(req), teamOf(req), hookOf(req), clientIpOf(req));
    res.json({ message: "webhook deleted" });
  });
  r.get(`${BASE}/:webhookId/deliveries`, async (req, res) => {
    res.json(await listDeliveries(deps, actorOf(req), teamOf(req), hookOf(req), parseQuery(PaginationQuery, req)));
  });
  r.get(`${BASE}/:webhookId/stats`, async (req, res) => {
    res.json(await webhookStats(deps, actorOf(req), teamOf(req), hookOf(req)));
  });
  return r;
}
