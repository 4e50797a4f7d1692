/** One email of the mailbox as both protocols see it. */
export interface MailboxMessage {
  uid: number;
  id: string;
  size: number;
  receivedAt: Date;
  seen: boolean;
}

/** A logged-in user's view of one inbox (extensions section 11). */
export interface MailboxSession {
  inboxId: string;
  address: string;
  uidValidity: number;
  /** Whether the key may manage emails: EXPUNGE, DELE and STORE of \Seen. */
  canManage: boolean;
  list(): Promise<MailboxMessage[]>;
  raw(emailId: string): Promise<Buffer>;
  setSeen(emailId: string, seen: boolean): Promise<void>;
  remove(emailId: string): Promise<void>;
  /** Calls `wake` when new mail reaches the inbox (on any replica); returns the unsubscribe. */
  onMail(wake: () => void): () => void;
}

/** What the protocol sessions ask of the service. */
export interface MailboxBackend {
  /** The mailbox of `address` for `password` (an API key), or null: refused, after the delay. */
  login(address: string, password: string, clientIp: string): Promise<MailboxSession | null>;
}
