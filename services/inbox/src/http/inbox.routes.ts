import { Router } from "express";
import { CreateInboxBody, IdParams, ListEmailsQuery, ListInboxesQuery, PaginationQuery, TeamParams } from "@burnbox/contracts";
import { actorOf, clientIpOf, parseBody, parseParams, parseQuery } from "@burnbox/service-kit";
import type { InboxDeps } from "../domain/deps";
import { getEmail, listEmails } from "../domain/emails.use-case";
import { createInbox, getInbox, listInboxes, listTeamInboxes } from "../domain/inboxes.use-case";

export function inboxRouter(deps: InboxDeps): Router {
  const r = Router();
  r.post("/inboxes", async (req, res) => {
    res.status(201).json(await createInbox(deps, actorOf(req), parseBody(CreateInboxBody, req), clientIpOf(req)));
  });
  r.get("/inboxes", async (req, res) => {
    res.json(await listInboxes(deps, actorOf(req), parseQuery(ListInboxesQuery, req)));
  });
  r.get("/inboxes/:id", async (req, res) => {
    res.json(await getInbox(deps, actorOf(req), parseParams(IdParams, req).id));
  });
  r.get("/inboxes/:id/emails", async (req, res) => {
    const { id } = parseParams(IdParams, req);
    res.json(await listEmails(deps, actorOf(req), id, parseQuery(ListEmailsQuery, req)));
  });
  r.get("/emails/:id", async (req, res) => {
    res.json(await getEmail(deps, actorOf(req), parseParams(IdParams, req).id));
  });
  r.get("/orgs/:orgId/teams/:teamId/inboxes", async (req, res) => {
    const { orgId, teamId } = parseParams(TeamParams, req);
    res.json(await listTeamInboxes(deps, actorOf(req), orgId, teamId, parseQuery(PaginationQuery, req)));
  });
  return r;
}
