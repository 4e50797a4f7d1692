import { ActionIcon, Anchor, Code, Stack, Table, Text, Tooltip } from "@mantine/core";
import { IconPhotoScan, IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { Link } from "react-router";
import { useTeamPermissions } from "../../api/team-permissions";
import { EmptyState, ListView, PageHeader, Time, useClampedPage, useListParams } from "../../components";
import { ListTable } from "../../components/ListTable";
import { TeamGate, type TeamScope } from "../../components/TeamGate";
import { useDeleteSnapshot, useSnapshots, type Snapshot } from "./api";
import { snapshotsKeys } from "./keys";
import { ComparisonBadge } from "./ComparisonBadge";
import { DeleteSnapshotModal } from "./DeleteSnapshotModal";

/** `/snapshots`: the mail baselines of the team chosen in the header (extensions section 12). */
export default function SnapshotsPage() {
  return <TeamGate title="Snapshots">{(scope) => <Snapshots scope={scope} />}</TeamGate>;
}

function Snapshots({ scope }: { scope: TeamScope }) {
  const path = { orgId: scope.orgId, teamId: scope.teamId };
  const list = useListParams();
  const q = useSnapshots({ path, page: list.page, perPage: list.perPage });
  const perms = useTeamPermissions(scope.orgId, scope.teamId);
  const canManage = !perms.isLoading && perms.can("team.snapshots.manage");
  const [deleting, setDeleting] = useState<Snapshot | undefined>();
  const remove = useDeleteSnapshot({ path }, { invalidates: [snapshotsKeys.all(scope.teamId)], onSuccess: () => setDeleting(undefined) });
  useClampedPage(list, q.data);

  return (
    <>
      <PageHeader
        title="Snapshots"
        description={`Baselines of the team ${scope.teamName}'s mail: each later mail compared with its baseline, as text, links and pictures.`}
      />
      <ListView
        query={q}
        loading={{ label: "Loading snapshots", height: 160 }}
        empty={
          <EmptyState title="No snapshots yet" icon={<IconPhotoScan size={28} stroke={1.5} />}>
            A test suite makes one with the SDK&apos;s <Code>expect(email).toMatchMailSnapshot(&quot;signup-welcome&quot;)</Code>, the
            CLI&apos;s <Code>burnbox snapshot save</Code> or <Code>POST …/snapshots</Code>; each later mail of that template is compared
            with it.
          </EmptyState>
        }
        table={{ label: "Snapshots, scrolls sideways", minWidth: 720 }}
        pagination={{ params: list, label: "Snapshot pages" }}
      >
        {(rows) => (
          <ListTable
            striped
            highlightOnHover
            verticalSpacing="xs"
            aria-label="Snapshots"
            columns={["Name", "Baseline subject", "Latest comparison", "Baseline updated"]}
            actions={canManage}
          >
            {rows.map((s) => (
              <Table.Tr key={s.id} data-testid="snapshot-row">
                <Table.Td style={{ overflowWrap: "anywhere" }}>
                  <Anchor component={Link} to={`/snapshots/${s.id}`}>
                    {s.name}
                  </Anchor>
                </Table.Td>
                <Table.Td style={{ overflowWrap: "anywhere" }}>{s.subject || "(no subject)"}</Table.Td>
                <Table.Td>
                  {s.latest_comparison ? (
                    <Stack gap={2}>
                      <ComparisonBadge comparison={s.latest_comparison} />
                      <Text size="xs" c="dimmed">
                        <Time value={s.latest_comparison.created_at} />
                      </Text>
                    </Stack>
                  ) : (
                    <Text size="sm" c="dimmed">
                      not compared yet
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Time value={s.updated_at} />
                </Table.Td>
                {canManage && (
                  <Table.Td ta="right">
                    <Tooltip label="Delete" withArrow>
                      <ActionIcon variant="subtle" color="red" aria-label={`Delete the snapshot ${s.name}`} onClick={() => setDeleting(s)}>
                        <IconTrash size={18} />
                      </ActionIcon>
                    </Tooltip>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </ListView>
      {deleting && <DeleteSnapshotModal snapshot={deleting} remove={remove} onClose={() => setDeleting(undefined)} />}
    </>
  );
}
