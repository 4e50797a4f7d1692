import { Router } from "express";
import {
  AssignDomainBody,
  CreateDomainBody,
  CreateOrgBody,
  CreateTeamBody,
  OrgParams,
  PaginationQuery,
  TeamParams,
} from "@burnbox/contracts";
import { actorOf, clientIpOf, parseBody, parseParams, parseQuery } from "@burnbox/service-kit";
import type { TenancyDeps } from "../domain/deps";
import { assignDomain, createDomain } from "../domain/domains.use-case";
import { createOrg, getOrg } from "../domain/orgs.use-case";
import { createTeam, listTeams } from "../domain/teams.use-case";

export function tenancyRouter(deps: TenancyDeps): Router {
  const r = Router();
  r.post("/orgs", async (req, res) => {
    res.status(201).json(await createOrg(deps, actorOf(req), parseBody(CreateOrgBody, req), clientIpOf(req)));
  });
  r.get("/orgs/:orgId", async (req, res) => {
    res.json(await getOrg(deps, actorOf(req), parseParams(OrgParams, req).orgId));
  });
  r.post("/orgs/:orgId/teams", async (req, res) => {
    const { orgId } = parseParams(OrgParams, req);
    res.status(201).json(await createTeam(deps, actorOf(req), orgId, parseBody(CreateTeamBody, req), clientIpOf(req)));
  });
  r.get("/orgs/:orgId/teams", async (req, res) => {
    const { orgId } = parseParams(OrgParams, req);
    res.json(await listTeams(deps, actorOf(req), orgId, parseQuery(PaginationQuery, req)));
  });
  r.post("/orgs/:orgId/domains", async (req, res) => {
    const { orgId } = parseParams(OrgParams, req);
    res.status(201).json(await createDomain(deps, actorOf(req), orgId, parseBody(CreateDomainBody, req), clientIpOf(req)));
  });
  r.post("/orgs/:orgId/teams/:teamId/domains", async (req, res) => {
    const { orgId, teamId } = parseParams(TeamParams, req);
    res.status(201).json(await assignDomain(deps, actorOf(req), orgId, teamId, parseBody(AssignDomainBody, req), clientIpOf(req)));
  });
  return r;
}
