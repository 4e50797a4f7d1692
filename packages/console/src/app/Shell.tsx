import { notifications } from "@mantine/notifications";
import { AppShell, Avatar, Burger, Center, Group, Loader, Menu, NavLink, Text, UnstyledButton } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { IconLogout, IconUserCircle } from "@tabler/icons-react";
import { lazy, Suspense } from "react";
import { Link, NavLink as RouterNavLink, Outlet, useLocation, useNavigate } from "react-router";
import { ColorSchemeToggle } from "../components/ColorSchemeToggle";
import { navEntries } from "./areas";
import { useFirstPagePainted } from "../lib/first-paint";
import { Logo } from "./Logo";
import { useIsSystemAdmin, useOrgPermissions } from "../api/permissions";
import { useSessionStore, useUser } from "../api/session";
import { useWorkspace, WorkspaceProvider } from "../api/workspace";
import { WorkspaceSwitcher } from "./WorkspaceSwitcher";

// the notifications area provides the bell (src/pages/notifications/Bell.tsx); its own chunk
const Bell = lazy(() => import("../pages/notifications/Bell"));

export function PageLoader() {
  return (
    <Center py="xl">
      <Loader role="status" aria-label="Loading" />
    </Center>
  );
}

/** The signed-in frame: header (workspace, bell, colours, user menu), navigation from the areas, the page. */
export function Shell() {
  const [opened, { toggle, close }] = useDisclosure();
  // the bell (its chunk, count, ticket and socket) after the first page has painted (src/lib/first-paint.ts)
  const painted = useFirstPagePainted();
  return (
    <WorkspaceProvider>
      <AppShell header={{ height: 56 }} navbar={{ width: 230, breakpoint: "sm", collapsed: { mobile: !opened } }} padding="md">
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap">
              <Burger
                opened={opened}
                onClick={toggle}
                hiddenFrom="sm"
                size="sm"
                aria-label={opened ? "Close navigation" : "Open navigation"}
              />
              <Logo />
              <WorkspaceSwitcher />
            </Group>
            <Group gap="xs" wrap="nowrap">
              {painted ? (
                <Suspense fallback={null}>
                  <Bell />
                </Suspense>
              ) : null}
              <ColorSchemeToggle />
              <UserMenu />
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar p="xs" component="nav" aria-label="Main">
          <MainNav onNavigate={close} />
        </AppShell.Navbar>
        <AppShell.Main>
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </AppShell.Main>
      </AppShell>
    </WorkspaceProvider>
  );
}

/** The navigation's entries this user may use: system-admin entries for system admins, permission entries where the header's org grants them. */
function MainNav({ onNavigate }: { onNavigate: () => void }) {
  const location = useLocation();
  const isSystemAdmin = useIsSystemAdmin();
  // entries behind an org permission show once the first page has painted (src/lib/first-paint.ts)
  const painted = useFirstPagePainted();
  const orgId = useWorkspace().org?.id;
  const perms = useOrgPermissions(painted ? orgId : undefined);
  const visibleNav = navEntries.filter(
    (entry) => (entry.audience !== "system-admin" || isSystemAdmin) && (entry.permission === undefined || perms.can(entry.permission)),
  );
  // the most specific entry is the current one: on /admin/users that is "Users", not also "Platform" (/admin)
  const current = visibleNav
    .filter((entry) => location.pathname === entry.to || location.pathname.startsWith(`${entry.to}/`))
    .reduce<string | undefined>((best, entry) => (best === undefined || entry.to.length > best.length ? entry.to : best), undefined);
  return visibleNav.map((entry) => (
    <NavLink
      key={entry.to}
      component={RouterNavLink}
      to={entry.to}
      // and only that one is aria-current (react-router's own match would mark every prefix)
      end={entry.to !== current}
      label={entry.label}
      leftSection={entry.icon ? <entry.icon size={18} stroke={1.5} /> : undefined}
      active={entry.to === current}
      onClick={onNavigate}
    />
  ));
}

function UserMenu() {
  const user = useUser();
  const store = useSessionStore();
  const navigate = useNavigate();
  return (
    <Menu position="bottom-end" withArrow>
      <Menu.Target>
        <UnstyledButton aria-label={`Account menu for ${user.display_name}`}>
          <Avatar size={32} radius="xl" color="ember" name={user.display_name} />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="xs" truncate maw={220}>
            {user.email}
          </Text>
        </Menu.Label>
        <Menu.Item component={Link} to="/account" leftSection={<IconUserCircle size={16} />}>
          Account
        </Menu.Item>
        <Menu.Item
          leftSection={<IconLogout size={16} />}
          onClick={() => {
            store.logout().then(
              () => navigate("/login", { replace: true }),
              (err: unknown) =>
                notifications.show({ color: "red", title: "Not signed out", message: err instanceof Error ? err.message : String(err) }),
            );
          }}
        >
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
