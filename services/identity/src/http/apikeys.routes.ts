import { Router, type Request } from "express";
import { ApiKeyParams, BulkRevokeBody, CreateApiKeyBody, ListApiKeysQuery, TeamParams, UpdateApiKeyBody } from "@burnbox/contracts";
import { actorOf, clientIpOf, parseBody, parseParams, parseQuery } from "@burnbox/service-kit";
import {
  bulkRevokeApiKeys,
  createApiKey,
  getApiKey,
  listApiKeys,
  revokeApiKey,
  rotateApiKey,
  updateApiKey,
  type TeamRef,
} from "../domain/apikeys.use-case";
import type { IdentityDeps } from "../domain/deps";

const BASE = "/orgs/:orgId/teams/:teamId/api-keys";

const teamOf = (req: Request): TeamRef => {
  const { orgId, teamId } = parseParams(TeamParams, req);
  return { orgId, teamId };
};
const keyOf = (req: Request) => parseParams(ApiKeyParams, req).keyId;

export function apiKeysRouter(deps: IdentityDeps): Router {
  const r = Router();
  r.post(BASE, async (req, res) => {
    res.status(201).json(await createApiKey(deps, actorOf(req), teamOf(req), parseBody(CreateApiKeyBody, req), clientIpOf(req)));
  });
  r.get(BASE, async (req, res) => {
    res.json(await listApiKeys(deps, actorOf(req), teamOf(req), parseQuery(ListApiKeysQuery, req)));
  });
  r.post(`${BASE}/bulk-revoke`, async (req, res) => {
    res.json(await bulkRevokeApiKeys(deps, actorOf(req), teamOf(req), parseBody(BulkRevokeBody, req).key_ids, clientIpOf(req)));
  });
  r.get(`${BASE}/:keyId`, async (req, res) => {
    res.json(await getApiKey(deps, actorOf(req), teamOf(req), keyOf(req)));
  });
  r.patch(`${BASE}/:keyId`, async (req, res) => {
    res.json(await updateApiKey(deps, actorOf(req), teamOf(req), keyOf(req), parseBody(UpdateApiKeyBody, req), clientIpOf(req)));
  });
  r.delete(`${BASE}/:keyId`, async (req, res) => {
    await revokeApiKey(deps, actorOf(req), teamOf(req), keyOf(req), clientIpOf(req));
    res.status(204).end();
  });
  r.post(`${BASE}/:keyId/rotate`, async (req, res) => {
    res.json(await rotateApiKey(deps, actorOf(req), teamOf(req), keyOf(req), clientIpOf(req)));
  });
  return r;
}
