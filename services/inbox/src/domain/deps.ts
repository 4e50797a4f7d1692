import type { UnitOfWork } from "@burnbox/service-kit/data";
import type { NatsConnection } from "@burnbox/service-kit/messaging";
import type { Clock } from "@burnbox/service-kit/runtime";
import type { InboxConfig } from "../config";
import type { InboxHot, InboxRepos } from "../data/repositories";
import type { LinkProber } from "./emails/checks/link-prober";
import type { MessageStore } from "./message-store";
import type { MailRenderer } from "./renderer";
import type { PlatformView } from "./platform/platform-view";
import type { AttemptCounter } from "./smtp/attempt-counter";

/** What every use case of the inbox service gets. */
export interface InboxDeps {
  /** `data.repos` (transaction-bound) and `data.hot` (pool-only: the intake, the hot inbox read). */
  data: UnitOfWork<InboxRepos, InboxHot>;
  nc: NatsConnection;
  storage: MessageStore;
  config: InboxConfig;
  now: Clock;
  /** The platform settings (demo on or off, inbox TTL defaults), current on every replica. */
  platform: PlatformView;
  /** The delivery attempts of each message, shared by every intake replica (`defer_first`). */
  attempts: AttemptCounter;
  /** The link check's requests, under the webhook rules and allow-list (extensions section 7). */
  links: LinkProber;
  /** The renderer deployable's client (extensions section 12): previews and snapshots' pictures. */
  renderer: MailRenderer;
  /** Wakes this process's outbound worker after a message is queued (extensions 10); absent where none runs. */
  outboundWake?: () => void;
}
