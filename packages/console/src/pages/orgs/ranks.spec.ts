import { assignableRoles, mayDeactivate } from "./ranks";

const roles = [
  { value: "owner", rank: 30 },
  { value: "admin", rank: 20 },
  { value: "member", rank: 10 },
];
const values = (rs: { value: string }[]) => rs.map((r) => r.value);

describe("org rank rules", () => {
  it("when the actor ranks above the target, then every role up to the actor's own is offered", () => {
    expect(values(assignableRoles(roles, "admin", "member"))).toEqual(["admin", "member"]);
    expect(values(assignableRoles(roles, "owner", "admin"))).toEqual(["owner", "admin", "member"]);
  });
  it("when the target ranks the same or higher, then no role is offered", () => {
    expect(assignableRoles(roles, "admin", "admin")).toEqual([]);
    expect(assignableRoles(roles, "admin", "owner")).toEqual([]);
    expect(assignableRoles(roles, "member", "member")).toEqual([]);
  });
  it("when members change their own role, then only lower or equal roles are offered", () => {
    expect(values(assignableRoles(roles, "admin", "admin", { self: true }))).toEqual(["admin", "member"]);
  });
  it("when the actor is a system admin, then every role is offered", () => {
    expect(values(assignableRoles(roles, undefined, "owner", { bypass: true }))).toEqual(["owner", "admin", "member"]);
  });
  it("deactivating needs a strictly higher rank, except for oneself", () => {
    expect(mayDeactivate(roles, "admin", "member")).toBe(true);
    expect(mayDeactivate(roles, "admin", "admin")).toBe(false);
    expect(mayDeactivate(roles, "member", "member", { self: true })).toBe(true);
  });
});
