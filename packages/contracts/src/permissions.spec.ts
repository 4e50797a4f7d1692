import { ORG_ROLE_GRANTS, TEAM_PERMISSIONS, TEAM_ROLE_GRANTS } from "./permissions";

describe("role grants (contract notes)", () => {
  it("when an org admin is compared with the owner, then only org.delete is missing", () => {
    const missing = ORG_ROLE_GRANTS.owner.filter((p) => !ORG_ROLE_GRANTS.admin.includes(p));
    expect(missing).toEqual(["org.delete"]);
  });

  it("when an org member is listed, then it holds exactly the notes' five views, analytics included and the audit log not", () => {
    expect([...ORG_ROLE_GRANTS.member].sort()).toEqual(
      ["org.analytics.view", "org.domains.view", "org.members.view", "org.settings.view", "org.view"].sort(),
    );
    expect(ORG_ROLE_GRANTS.member).not.toContain("org.audit.view");
    expect(ORG_ROLE_GRANTS.member).not.toContain("org.teams.create");
  });

  it("when a team member is listed, then views plus inbox create/manage and email manage", () => {
    const nonView = TEAM_ROLE_GRANTS.member.filter((p) => !p.endsWith(".view"));
    expect(nonView.sort()).toEqual(["team.emails.manage", "team.inboxes.create", "team.inboxes.manage"]);
    expect(TEAM_ROLE_GRANTS.lead).toEqual(TEAM_PERMISSIONS);
  });

  it("when the team catalog is read, then it holds the 16 scopes of spec 2.2 plus team.emails.manage, team.emails.send and team.snapshots.manage", () => {
    expect(TEAM_PERMISSIONS).toHaveLength(19);
    expect(TEAM_PERMISSIONS).toContain("team.emails.send");
  });

  it("when a team member is listed, then it may not send mail out (team.emails.send is the lead's)", () => {
    expect(TEAM_ROLE_GRANTS.member).not.toContain("team.emails.send");
    expect(TEAM_ROLE_GRANTS.lead).toContain("team.emails.send");
  });

  it("when the snapshots permission is read, then it is in the catalog and granted to team leads, not members", () => {
    expect(TEAM_PERMISSIONS).toContain("team.snapshots.manage");
    expect(TEAM_ROLE_GRANTS.lead).toContain("team.snapshots.manage");
    expect(TEAM_ROLE_GRANTS.member).not.toContain("team.snapshots.manage");
  });
});
