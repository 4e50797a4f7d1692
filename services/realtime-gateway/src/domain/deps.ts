import type { NatsConnection } from "@burnbox/service-kit";
import type { WsTicketRepository } from "../data/ws-ticket.repository";
import type { Hub } from "./hub";

/** What every realtime use case receives: explicit dependencies, no globals. */
export interface RealtimeDeps {
  tickets: WsTicketRepository;
  /** The sockets of this replica, by inbox. */
  hub: Hub;
  nc: NatsConnection;
  namespace: string;
}
