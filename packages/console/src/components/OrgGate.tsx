import { Button } from "@mantine/core";
import { IconBuilding } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { useWorkspace, type OrgWithRole } from "../api/workspace";
import { EmptyState } from "./EmptyState";
import { GateFallback } from "./GateFallback";

/**
 * Renders `children` with the org chosen in the header; while that loads, a loader; when the user
 * belongs to no org, says so (with the page's heading, so the page still has its `<h1>`).
 */
export function OrgGate({ title, children }: { title: string; children: (org: OrgWithRole) => ReactNode }) {
  const { org, isLoading } = useWorkspace();
  if (org) return <>{children(org)}</>;
  return (
    <GateFallback
      title={title}
      isLoading={isLoading}
      empty={
        <EmptyState
          title="No organization yet"
          icon={<IconBuilding size={28} stroke={1.5} />}
          action={
            <Button component={Link} to="/orgs?new=1">
              Create an organization
            </Button>
          }
        >
          {title} belong to an organization. Create one, or ask an owner to invite you, then choose it in the header.
        </EmptyState>
      }
    />
  );
}
