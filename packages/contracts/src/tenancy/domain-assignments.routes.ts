import { TeamParams } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import { AssignDomainBody, DomainAssignment } from "./domain-assignments.schemas";

export const domainAssignmentsRoutes = defineRoutes({ service: "tenancy", tag: "Domain assignments" }, [
  {
    operationId: "assignDomain",
    method: "post",
    path: "/orgs/{orgId}/teams/{teamId}/domains",
    auth: "user",
    summary: "Assign a verified domain to a team",
    request: { params: TeamParams, body: AssignDomainBody },
    responses: {
      201: { description: "Assigned", schema: DomainAssignment },
      400: { description: "Domain not verified" },
      409: { description: "Already assigned" },
    },
  },
] as const);
