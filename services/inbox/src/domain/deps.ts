import type { NatsConnection, UnitOfWork } from "@burnbox/service-kit";
import type { InboxConfig } from "../config";
import type { InboxRepos } from "../data/repositories";
import type { MessageStore } from "../data/storage";
import type { PlatformView } from "./platform/platform-view";

/** What every use case of the inbox service gets. */
export interface InboxDeps {
  data: UnitOfWork<InboxRepos>;
  nc: NatsConnection;
  storage: MessageStore;
  config: InboxConfig;
  now: () => number;
  /** The platform settings (demo on or off, inbox TTL defaults), current on every replica. */
  platform: PlatformView;
}
