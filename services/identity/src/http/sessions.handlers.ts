import type { sessionsRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit/http";
import type { IdentityDeps } from "../domain/deps";
import { listSessions } from "../domain/sessions/list-sessions.use-case";
import { revokeOtherSessions } from "../domain/sessions/revoke-other-sessions.use-case";
import { revokeSession } from "../domain/sessions/revoke-session.use-case";

export const sessionsHandlers = (deps: IdentityDeps): Handlers<typeof sessionsRoutes> => ({
  listSessions: ({ ctx, query }) => listSessions(deps, ctx, query),
  revokeSession: ({ ctx, params }) => revokeSession(deps, ctx, { sessionId: params.id }),
  revokeAllSessions: ({ ctx }) => revokeOtherSessions(deps, ctx),
});
