import { customRoleProblem } from "./role-rules";

describe("customRoleProblem", () => {
  it("when the rank reaches the top system role of its scope, then it is refused", () => {
    expect(customRoleProblem({ scope: "org", rank: 30 })).toMatch(/rank/);
    expect(customRoleProblem({ scope: "team", rank: 20 })).toMatch(/rank/);
    expect(customRoleProblem({ scope: "team", rank: 0 })).toMatch(/rank/);
    expect(customRoleProblem({ scope: "org", rank: 29 })).toBeNull();
  });
  it("when an org role names an unknown key or a team key is malformed, then it is refused; a new team key is fine", () => {
    expect(customRoleProblem({ scope: "org", rank: 5, permissions: ["org.view", "org.everything"] })).toMatch(/org.everything/);
    expect(customRoleProblem({ scope: "team", rank: 5, permissions: ["Team.X"] })).toMatch(/team/);
    expect(customRoleProblem({ scope: "team", rank: 5, permissions: ["team.reports.export"] })).toBeNull();
  });
});
