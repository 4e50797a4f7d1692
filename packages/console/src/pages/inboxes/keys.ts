/** Query keys of the inboxes area (inboxes, their mail, the reader); all start with "inboxes". */
export type InboxStatus = "active" | "expired" | "all";
export interface InboxFilters {
  teamId: string | undefined;
  status: InboxStatus;
  q: string;
  page: number;
}
export interface MailFilters {
  q: string;
  page: number;
}

/** `GET /emails/:id/preview`'s parameters (extensions section 12). */
export interface PreviewParams {
  width: "1280" | "600" | "375";
  scheme: "light" | "dark";
  images: "blocked" | "allowed";
}

export const inboxKeys = {
  all: ["inboxes"] as const,
  myDomains: () => ["inboxes", "my-domains"] as const,
  lists: () => ["inboxes", "list"] as const,
  list: (f: InboxFilters) => ["inboxes", "list", f] as const,
  inbox: (id: string) => ["inboxes", "one", id] as const,
  emails: (inboxId: string) => ["inboxes", "emails", inboxId] as const,
  emailPage: (inboxId: string, f: MailFilters) => ["inboxes", "emails", inboxId, f] as const,
  email: (id: string) => ["inboxes", "email", id] as const,
  raw: (id: string) => ["inboxes", "raw", id] as const,
  smtpLog: (inboxId: string, page: number) => ["inboxes", "smtp-log", inboxId, page] as const,
  htmlCheck: (emailId: string) => ["inboxes", "html-check", emailId] as const,
  preview: (emailId: string, p: PreviewParams) => ["inboxes", "preview", emailId, p] as const,
  outbound: (inboxId: string) => ["inboxes", "outbound", inboxId] as const,
  outboundPage: (inboxId: string, page: number) => ["inboxes", "outbound", inboxId, page] as const,
};
