import type { InviteMailFields } from "@burnbox/contracts";
import type { OutgoingMail } from "../../adapters/mailer";

/** The invite mail: its text part carries the link `<base_url>/invites/<token>` (contract notes). */
export function inviteMail(baseUrl: string, m: InviteMailFields): OutgoingMail {
  const link = `${baseUrl.replace(/\/+$/, "")}/invites/${m.token}`;
  return {
    to: m.email,
    subject: `You are invited to join ${m.org_name} on BurnBox`,
    text:
      `${m.inviter} invited you to join ${m.org_name} on BurnBox as ${m.org_role}.\n\n` +
      `Accept the invite: ${link}\n\n` +
      `The link is valid until ${m.expires_at} and works once. If you did not expect it, ignore this mail.`,
  };
}
