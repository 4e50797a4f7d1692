import type { wsTicketsRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit/http";
import type { RealtimeDeps } from "../domain/deps";
import { createWsTicket } from "../domain/ws-tickets/create-ws-ticket.use-case";

export const wsTicketsHandlers = (deps: RealtimeDeps): Handlers<typeof wsTicketsRoutes> => ({
  createWsTicket: ({ ctx }) => createWsTicket(deps, ctx),
});
