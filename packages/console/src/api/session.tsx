import { createContext, useContext, useEffect, useSyncExternalStore, type ReactNode } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { SessionState, SessionStore } from "./session-store";

const SessionContext = createContext<SessionStore | null>(null);

/** Provides the session (and through it the SDK client); starts it once: a refresh cookie signs back in. */
export function SessionProvider({ store, children }: { store: SessionStore; children: ReactNode }) {
  const queryClient = useQueryClient();
  useEffect(() => {
    void store.start();
    const onVisible = () => document.visibilityState === "visible" && store.onVisible();
    document.addEventListener("visibilitychange", onVisible);
    // signed out (here, in another tab, or the session lapsed): nothing cached for the last user stays
    let was = store.getState().status;
    const unsubscribe = store.subscribe(() => {
      const now = store.getState().status;
      if (was === "signed-in" && now === "anonymous") queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== "public" });
      was = now;
    });
    return () => {
      document.removeEventListener("visibilitychange", onVisible);
      unsubscribe();
    };
  }, [store, queryClient]);
  return <SessionContext.Provider value={store}>{children}</SessionContext.Provider>;
}

export function useSessionStore(): SessionStore {
  const store = useContext(SessionContext);
  if (!store) throw new Error("useSessionStore outside <SessionProvider>");
  return store;
}

/** The session as it is now: loading, anonymous, or signed in with the user. */
export function useSession(): SessionState {
  const store = useSessionStore();
  return useSyncExternalStore(store.subscribe, store.getState);
}

/** The signed-in user (only inside the signed-in shell). */
export function useUser() {
  const s = useSession();
  if (s.status !== "signed-in") throw new Error("useUser outside the signed-in shell");
  return s.user;
}
