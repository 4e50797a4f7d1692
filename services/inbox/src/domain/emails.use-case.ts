import { pageWindow, toPage, type Actor, type Email, type EmailSummary, type Page, type PaginationQuery } from "@burnbox/contracts";
import { errors } from "@burnbox/service-kit";
import type { Prisma } from "../data/prisma";
import { emailSummaryView, emailView } from "../data/views";
import type { InboxDeps } from "./deps";
import { visibleInbox } from "./inboxes.use-case";

/** The emails of an inbox, newest first; `q` searches subject, sender and text. */
export async function listEmails(
  deps: InboxDeps,
  actor: Actor,
  inboxId: string,
  q: PaginationQuery & { q?: string | undefined },
): Promise<Page<EmailSummary>> {
  await visibleInbox(deps, actor, inboxId, "team.emails.view");
  const term = q.q?.trim();
  const where: Prisma.EmailWhereInput = term
    ? {
        inboxId,
        OR: [
          { subject: { contains: term, mode: "insensitive" } },
          { fromAddress: { contains: term, mode: "insensitive" } },
          { bodyText: { contains: term, mode: "insensitive" } },
        ],
      }
    : { inboxId };
  const [rows, total] = await Promise.all([
    deps.db.email.findMany({ where, orderBy: [{ receivedAt: "desc" }, { id: "desc" }], ...pageWindow(q) }),
    deps.db.email.count({ where }),
  ]);
  return toPage(rows.map(emailSummaryView), total, q);
}

export async function getEmail(deps: InboxDeps, actor: Actor, emailId: string): Promise<Email> {
  const email = await deps.db.email.findUnique({ where: { id: emailId }, include: { attachments: true } });
  if (!email) throw errors.notFound("email");
  try {
    await visibleInbox(deps, actor, email.inboxId, "team.emails.view");
  } catch (err) {
    if ((err as { status?: number }).status === 404) throw errors.notFound("email");
    throw err;
  }
  return emailView(email);
}
