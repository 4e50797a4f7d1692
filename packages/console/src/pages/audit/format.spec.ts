import { actionLabel, actorLabel, agentLabel, apiFilters, filenameOf, localInputToRfc3339, targetLabel } from "./format";

describe("how an audit entry reads", () => {
  it("when an action has a resource and a verb, then it reads as words, with API key spelt out", () => {
    expect(actionLabel("member.role_changed")).toBe("Member role changed");
    expect(actionLabel("apikey.rotated")).toBe("API key rotated");
    expect(actionLabel("user.login_failed")).toBe("User login failed");
  });

  it("when the actor has no address, then the kind of actor is named instead", () => {
    expect(actorLabel({ actor_type: "user", actor_email: "a@example.test", actor_id: "u1" })).toBe("a@example.test");
    expect(actorLabel({ actor_type: "system", actor_email: null, actor_id: null })).toBe("BurnBox (system)");
    expect(actorLabel({ actor_type: "api_key", actor_email: null, actor_id: "u1" })).toBe("An API key");
  });

  it("when the target has a name, then the name shows, else its id", () => {
    expect(targetLabel({ resource_type: "api_key", resource_name: "CI", resource_id: "k1" })).toBe("API key CI");
    expect(targetLabel({ resource_type: "domain_assignment", resource_name: null, resource_id: "d1" })).toBe("domain assignment d1");
  });

  it("when a user agent is a known browser, then it shortens to browser and system; an unknown one is cut at 40 characters", () => {
    expect(agentLabel("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36")).toBe(
      "Chrome on Linux",
    );
    expect(agentLabel("curl/8.5.0")).toBe("curl");
    expect(agentLabel(null)).toBeNull();
    expect(agentLabel("x".repeat(50))).toBe(`${"x".repeat(40)}…`);
  });

  it("when the agent is an iPhone's, then it reads iOS, as in the sessions lists (lib/user-agent)", () => {
    const iphone =
      "Mozilla/5.0 (iPhone; CPU iPhone OS 19_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/19.1 Mobile/15E148 Safari/604.1";
    expect(agentLabel(iphone)).toBe("Safari on iOS");
    expect(
      agentLabel("Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36"),
    ).toBe("Chrome on ChromeOS");
  });
});

describe("the audit filters and export", () => {
  it("when a filter is empty or absent (undefined or null from the URL), then it is not sent", () => {
    expect(apiFilters({ action: "inbox.created", category: "", severity: undefined, actor_id: null as unknown as string })).toEqual({
      action: "inbox.created",
    });
  });

  it("when a date is entered, then it goes out as RFC 3339 in UTC; an empty one stays empty", () => {
    expect(localInputToRfc3339("")).toBe("");
    expect(localInputToRfc3339("2026-11-27T14:05")).toMatch(/^2026-11-2\dT\d\d:\d5:00Z$/);
  });

  it("when the API names the file, then that name is used, with no path in it", () => {
    expect(filenameOf('attachment; filename="audit-acme-20261127-140500.csv"', "audit.csv")).toBe("audit-acme-20261127-140500.csv");
    expect(filenameOf('attachment; filename="../../x.csv"', "audit.csv")).toBe(".._.._x.csv");
    expect(filenameOf(null, "audit.json")).toBe("audit.json");
  });
});
