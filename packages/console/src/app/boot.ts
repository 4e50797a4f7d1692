// What the console starts before React, in the small entry chunk (main.tsx): the session's refresh
// and the setup status are on the wire while React, the component library and the page's chunk
// load and run. (In one big first chunk they went out only after all of it had been evaluated and
// the page's chunk had come: the refresh waits for the tabs' lock, granted in a task of its own.)
import { QueryClient } from "@tanstack/react-query";
import { BurnBoxError } from "@burnbox/sdk";
import { unwrap } from "../api/query";
import { SessionStore } from "../api/session-store";

function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        // a 4xx will not change by asking again; the network or a 5xx might
        retry: (count, error) => count < 2 && !(error instanceof BurnBoxError && error.status < 500),
        refetchOnWindowFocus: false,
      },
    },
  });
}

export const SETUP_STATUS_KEY = ["public", "setup-status"] as const;

/** The page's one session and query cache (each tab has its own; the session store talks to the others). */
export const store = new SessionStore(window.location.origin);
export const queryClient = makeQueryClient();

// the first-run gate needs the setup status; a surviving refresh cookie signs straight back in
void queryClient.prefetchQuery({
  queryKey: SETUP_STATUS_KEY,
  queryFn: ({ signal }) => unwrap(store.client.api.GET("/setup/status", { signal })),
  staleTime: Infinity,
  retry: 1,
});
void store.start();
