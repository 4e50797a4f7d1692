import { inviteMail } from "./invite-mail";

describe("inviteMail", () => {
  const fields = {
    email: "new@example.org",
    token: "ab".repeat(32),
    org_name: "Acme",
    org_role: "admin",
    inviter: "boss@example.org",
    expires_at: "2026-11-25T00:00:00.000Z",
  };

  it("when an invite is mailed, then the text carries <base_url>/invites/<token> and goes to the invited address", () => {
    const mail = inviteMail("https://burnbox.example/", fields);
    expect(mail.to).toBe("new@example.org");
    expect(mail.text).toContain(`https://burnbox.example/invites/${"ab".repeat(32)}`);
    expect(mail.subject).toContain("Acme");
  });
});
