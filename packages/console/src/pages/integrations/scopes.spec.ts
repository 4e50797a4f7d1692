import { groupOf, hintOf } from "./scopes";
import { keyStatus } from "./key-status";

describe("the scope picker's rules", () => {
  it("when a scope names a resource, then it groups under it; team.view and team.settings.* group under the team", () => {
    expect(groupOf("team.inboxes.create")).toBe("inboxes");
    expect(groupOf("team.apikeys.manage")).toBe("apikeys");
    expect(groupOf("team.view")).toBe("team");
    expect(groupOf("team.settings.manage")).toBe("team");
    expect(groupOf("team.reports.export")).toBe("reports");
  });

  it("when the catalog's description only repeats the key, then the spec's words stand in; a custom permission keeps its own", () => {
    expect(hintOf({ key: "team.view", label: "team.view", description: "Permission team.view" })).toBe("View team info");
    expect(hintOf({ key: "team.emails.view", label: "", description: "" })).toBe("Read emails and attachments");
    expect(hintOf({ key: "team.reports.export", label: "Export reports", description: "Download the team's reports" })).toBe(
      "Download the team's reports",
    );
    expect(hintOf({ key: "team.reports.export", label: "Export reports", description: "" })).toBe("Export reports");
    expect(hintOf({ key: "team.reports.export", label: "team.reports.export", description: "" })).toBe("");
  });
});

describe("an API key's state", () => {
  const now = Date.parse("2026-11-27T12:00:00Z");
  const key = { revoked_at: null, expires_at: null, is_active: true };

  it("when nothing stops it, then it is active; is_active false makes it disabled", () => {
    expect(keyStatus(key, now)).toBe("active");
    expect(keyStatus({ ...key, is_active: false }, now)).toBe("disabled");
    expect(keyStatus({ ...key, expires_at: "2026-11-28T00:00:00Z" }, now)).toBe("active");
  });

  it("when it is past its expiry, then it is expired; a revoked key is revoked whatever else holds", () => {
    expect(keyStatus({ ...key, expires_at: "2026-11-27T11:59:59Z", is_active: false }, now)).toBe("expired");
    expect(keyStatus({ ...key, revoked_at: "2026-11-27T10:00:00Z", expires_at: "2026-01-01T00:00:00Z" }, now)).toBe("revoked");
  });
});
