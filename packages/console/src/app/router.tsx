import { createBrowserRouter, Navigate, type RouteObject } from "react-router";
import { areas, navEntries } from "./areas";
import { NotFound, PublicLayout, RequireSession, RouteError, SetupGate } from "./layouts";
import { PageLoader, Shell } from "./Shell";

/** Every area's pages: public ones in the narrow layout, the rest inside the signed-in shell. */
export function routes(): RouteObject[] {
  return [
    {
      errorElement: <RouteError />,
      // while the first page's lazy module loads
      hydrateFallbackElement: <PageLoader />,
      // until the first-run setup is complete, every page leads to /setup
      element: <SetupGate />,
      children: [
        { element: <PublicLayout />, children: areas.flatMap((a) => a.publicRoutes ?? []) },
        {
          element: (
            <RequireSession>
              <Shell />
            </RequireSession>
          ),
          children: [
            { index: true, element: <Navigate to={navEntries[0]?.to ?? "/account"} replace /> },
            ...areas.flatMap((a) => a.routes ?? []),
          ],
        },
        { path: "*", element: <NotFound /> },
      ],
    },
  ];
}

export const createRouter = () => createBrowserRouter(routes());
