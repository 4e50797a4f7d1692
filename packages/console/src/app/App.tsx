import { localStorageColorSchemeManager, MantineProvider } from "@mantine/core";
import { Notifications } from "@mantine/notifications";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { RouterProvider } from "react-router";
import { BurnBoxError } from "@burnbox/sdk";
import { SessionStore } from "../api/session-store";
import { createRouter } from "./router";
import { SessionProvider } from "./session";
import { cssVariablesResolver, theme } from "./theme";

const colorSchemeManager = localStorageColorSchemeManager({ key: "burnbox.color-scheme" });

function makeQueryClient() {
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

export function App() {
  const [queryClient] = useState(makeQueryClient);
  const [store] = useState(() => new SessionStore(window.location.origin));
  const [router] = useState(createRouter);
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="auto"
      colorSchemeManager={colorSchemeManager}
    >
      <Notifications position="top-right" />
      <QueryClientProvider client={queryClient}>
        <SessionProvider store={store}>
          <RouterProvider router={router} />
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
