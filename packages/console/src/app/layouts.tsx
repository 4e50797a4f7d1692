import { Box, Button, Center, Container, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { Suspense, type ReactNode } from "react";
import { isRouteErrorResponse, Link, Navigate, Outlet, useLocation, useRouteError } from "react-router";
import { ColorSchemeToggle } from "../components/ColorSchemeToggle";
import { Logo } from "./Logo";
import { useSetupStatus } from "../pages/setup/api";
import { useSession } from "../api/session";
import { PageLoader } from "./Shell";

/** Pages reachable signed out (sign-in, invite and mail links): a narrow card under the logo. */
export function PublicLayout() {
  return (
    <Box mih="100vh" bg="var(--mantine-color-body)">
      <Group justify="space-between" px="md" py="sm" component="header">
        <Logo />
        <ColorSchemeToggle />
      </Group>
      <Container size={460} py="xl" component="main">
        <Paper withBorder shadow="sm" p="xl" radius="md">
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </Paper>
      </Container>
    </Box>
  );
}

/**
 * First run: while setup is incomplete (`GET /setup/status`, public) every page sends the visitor
 * to /setup; once complete, /setup is never offered again. Status the console cannot read does not
 * block it (the API still refuses what setup must do first).
 */
export function SetupGate() {
  const { pathname } = useLocation();
  const status = useSetupStatus({ staleTime: Infinity, retry: 1 });
  if (status.isPending) return <PageLoader />;
  const completed = status.data?.completed ?? true;
  if (!completed && pathname !== "/setup") return <Navigate to="/setup" replace />;
  if (completed && pathname === "/setup") return <Navigate to="/" replace />;
  return <Outlet />;
}

/** Signed-in pages: while the session starts, a loader; signed out, the login page (coming back here after). */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.status === "loading") return <PageLoader />;
  if (session.status === "anonymous") {
    const here = `${location.pathname}${location.search}${location.hash}`;
    const next = session.reason === "signed-out" || here === "/" ? "" : `?next=${encodeURIComponent(here)}`;
    return <Navigate to={`/login${next}`} replace />;
  }
  return children;
}

export function NotFound() {
  return (
    <Center mih="60vh" component="main">
      <Stack align="center">
        <Title order={1}>Page not found</Title>
        <Text c="dimmed">There is no console page at this address.</Text>
        <Button component={Link} to="/">
          Go to the console
        </Button>
      </Stack>
    </Center>
  );
}

/** A page failed to load or render (often: a new version was deployed while this tab was open). */
export function RouteError() {
  const error = useRouteError();
  const text = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : String(error);
  return (
    <Center mih="60vh" component="main">
      <Stack align="center" maw={480} ta="center">
        <Title order={1}>This page could not be shown</Title>
        <Text c="dimmed">{text}</Text>
        <Button onClick={() => window.location.reload()}>Reload</Button>
      </Stack>
    </Center>
  );
}
