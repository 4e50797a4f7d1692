import { REDACTED, actorTypeOf, categoryOf, resourceNameOf, severityOf, withoutSecrets } from "./audit-rules";

describe("audit rules", () => {
  it("when an action names its resource, then the category is that resource's as the notes group them", () => {
    expect(categoryOf("inbox.created", "inbox")).toBe("inbox");
    expect(categoryOf("user.login_failed", "user")).toBe("auth");
    expect(categoryOf("session.revoked", "session")).toBe("auth");
    expect(categoryOf("invite.created", "invite")).toBe("member");
    expect(categoryOf("member.role_changed", "member")).toBe("member");
    expect(categoryOf("domain_assignment.updated", "domain_assignment")).toBe("domain");
    expect(categoryOf("apikey.rotated", "api_key")).toBe("apikey");
    expect(categoryOf("email.deleted", "email")).toBe("email");
    expect(categoryOf("notification.all_read", "notification")).toBe("notification");
    expect(categoryOf("role.created", "role")).toBe("admin");
    expect(categoryOf("team.member_added", "team_member")).toBe("team");
  });

  it("when the action's resource is unknown, then the target's type decides, else admin", () => {
    expect(categoryOf("thing.done", "webhook")).toBe("webhook");
    expect(categoryOf("thing.done", "thing")).toBe("admin");
  });

  it("when the emitter set a severity, then it stands; otherwise destructive actions are critical and removals warnings", () => {
    expect(severityOf("inbox.created", "critical")).toBe("critical");
    expect(severityOf("org.deleted", undefined)).toBe("critical");
    expect(severityOf("email.deleted", undefined)).toBe("warning");
    expect(severityOf("user.login_failed", undefined)).toBe("warning");
    expect(severityOf("member.role_changed", undefined)).toBe("warning");
    expect(severityOf("inbox.created", undefined)).toBe("info");
  });

  it("when a key acted, then the actor type is api_key; without a user it is the system", () => {
    expect(actorTypeOf({ userId: "u", apiKeyId: "k" })).toBe("api_key");
    expect(actorTypeOf({ userId: "u", apiKeyId: null })).toBe("user");
    expect(actorTypeOf({ userId: null, apiKeyId: null })).toBe("system");
  });

  it("when the target has no name, then the metadata's name, address, domain or URL is used", () => {
    expect(resourceNameOf("Subject line", { name: "x" })).toBe("Subject line");
    expect(resourceNameOf(undefined, { full_address: "a@b.test" })).toBe("a@b.test");
    expect(resourceNameOf(undefined, { url: "https://hook.test/x" })).toBe("https://hook.test/x");
    expect(resourceNameOf(undefined, { fields: ["name"] })).toBeNull();
  });

  it("when metadata holds a secret, then it is redacted wherever it sits, and flags about secrets stay", () => {
    const key = `bb_${"a".repeat(64)}`;
    expect(
      withoutSecrets({
        password: "hunter2",
        nested: { client_secret: "s3cret", list: [key] },
        client_secret_changed: true,
        note: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln",
        key_prefix: "bb_abcd",
        name: "ci",
      }),
    ).toEqual({
      password: REDACTED,
      nested: { client_secret: REDACTED, list: [REDACTED] },
      client_secret_changed: true,
      note: REDACTED,
      key_prefix: "bb_abcd",
      name: "ci",
    });
  });
});
