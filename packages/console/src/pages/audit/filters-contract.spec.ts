import { ListAuditQuery } from "@burnbox/contracts/src/tenancy/audit.schemas";
import { contractErrors } from "../../lib/contract-form";
import { apiFilters, type AuditFilters } from "./format";

describe("the audit filters' contract check", () => {
  const check = contractErrors(ListAuditQuery, (f: AuditFilters) => apiFilters(f));

  it("accepts the filters the API accepts, blanks left out", () => {
    expect(check({})).toEqual({});
    expect(check({ action: "inbox.created", resource_id: "abc", actor_email: "", date_to: "2001-01-01T00:00:00.000Z" })).toEqual({});
  });

  it("refuses what the API refuses, under the field", () => {
    expect(Object.keys(check({ action: "created" }))).toEqual(["action"]);
    expect(Object.keys(check({ actor_id: "not-a-uuid" }))).toEqual(["actor_id"]);
    expect(Object.keys(check({ date_from: "2002-01-01T00:00:00.000Z", date_to: "2001-01-01T00:00:00.000Z" }))).toEqual(["date_from"]);
  });
});
