import { Anchor, Badge, Button, Code, Group, Paper, SimpleGrid, Skeleton, Stack, Table, Text, Title } from "@mantine/core";
import { IconArrowLeft, IconRefresh, IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { useTeamPermissions } from "../../api/team-permissions";
import { ApiErrorAlert, PageHeader, Time, useAbsolute } from "../../components";
import { TeamGate, type TeamScope } from "../../components/TeamGate";
import { useDeleteSnapshot, useSnapshot, type Snapshot, type SnapshotComparison } from "./api";
import { ComparisonBadge } from "./ComparisonBadge";
import { DeleteSnapshotModal } from "./DeleteSnapshotModal";
import { snapshotsKeys } from "./keys";
import { RebaselineModal } from "./RebaselineModal";
import { SnapshotImage } from "./SnapshotImage";

/** `/snapshots/:snapshotId`: one baseline against its latest comparison, with the diff pictures; re-baseline and delete. */
export default function SnapshotPage() {
  return <TeamGate title="Snapshot">{(scope) => <SnapshotView scope={scope} />}</TeamGate>;
}

/** A plain list that wraps inside a narrow cell (Mantine's List keeps its items' content on one flex line). */
const LIST = { margin: 0, paddingLeft: 18, fontSize: "var(--mantine-font-size-sm)" } as const;

const percent = (ratio: number) => `${(Math.round(ratio * 100_000) / 1000).toString()} %`;

function SnapshotView({ scope }: { scope: TeamScope }) {
  const { snapshotId = "" } = useParams();
  const path = { orgId: scope.orgId, teamId: scope.teamId };
  const navigate = useNavigate();
  const q = useSnapshot({ path, snapshotId });
  const perms = useTeamPermissions(scope.orgId, scope.teamId);
  const canManage = !perms.isLoading && perms.can("team.snapshots.manage");
  const [pending, setPending] = useState<"rebaseline" | "delete" | null>(null);
  const absolute = useAbsolute();
  const remove = useDeleteSnapshot(
    { path },
    { invalidates: [snapshotsKeys.all(scope.teamId)], onSuccess: () => navigate("/snapshots", { replace: true }) },
  );

  if (q.error && !q.data)
    return (
      <>
        <PageHeader title="Snapshot" />
        <ApiErrorAlert error={q.error} />
        <BackLink />
      </>
    );
  if (!q.data) return <Skeleton h={320} aria-label="Loading the snapshot" />;
  const s = q.data;
  const latest = s.latest_comparison;
  return (
    <>
      <BackLink />
      <PageHeader
        title={s.name}
        description={`A baseline of the team ${scope.teamName}'s mail, updated ${absolute(s.updated_at)}.`}
        actions={
          canManage ? (
            <>
              <Button variant="light" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => setPending("rebaseline")}>
                Re-baseline
              </Button>
              <Button variant="light" color="red" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setPending("delete")}>
                Delete
              </Button>
            </>
          ) : null
        }
      />
      <Stack gap="lg">
        <Baseline snapshot={s} />
        {latest ? (
          <Comparison comparison={latest} />
        ) : (
          <Paper withBorder p="md" component="section" aria-labelledby="baseline-pictures">
            <Title order={2} size="h4" id="baseline-pictures" mb="xs">
              Baseline pictures
            </Title>
            <Text size="sm" c="dimmed" mb="sm">
              No mail has been compared with this baseline yet (<Code>POST /emails/:id/compare</Code>, or the SDK&apos;s matcher).
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
              {s.baseline_images.map((img) => (
                <SnapshotImage
                  key={`${img.width}-${img.scheme}`}
                  url={img.url}
                  caption={`${img.width} px, ${img.scheme}`}
                  alt={`Baseline at ${img.width} px, ${img.scheme}`}
                  testId="baseline-image"
                />
              ))}
            </SimpleGrid>
          </Paper>
        )}
      </Stack>
      {pending === "rebaseline" && <RebaselineModal snapshot={s} path={path} opened onClose={() => setPending(null)} />}
      {pending === "delete" && <DeleteSnapshotModal snapshot={s} remove={remove} onClose={() => setPending(null)} />}
    </>
  );
}

function BackLink() {
  return (
    <Anchor component={Link} to="/snapshots" size="sm" mb="sm" style={{ display: "inline-flex", alignItems: "center", gap: 4 }}>
      <IconArrowLeft size={14} aria-hidden />
      All snapshots
    </Anchor>
  );
}

function Baseline({ snapshot: s }: { snapshot: Snapshot }) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="baseline-title">
      <Title order={2} size="h4" id="baseline-title" mb="xs">
        Baseline
      </Title>
      <Table verticalSpacing={4} fz="sm" aria-label="The baseline" layout="fixed" style={{ overflowWrap: "anywhere" }}>
        <Table.Tbody>
          <Table.Tr>
            <Table.Th scope="row" w={110}>
              Subject
            </Table.Th>
            <Table.Td style={{ overflowWrap: "anywhere" }}>{s.subject || "(no subject)"}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th scope="row">From</Table.Th>
            <Table.Td style={{ overflowWrap: "anywhere" }}>{s.from}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th scope="row">Made from</Table.Th>
            <Table.Td>
              <Code>{s.email_id}</Code>
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th scope="row">Links</Table.Th>
            <Table.Td>{s.links.length}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th scope="row">Own masks</Table.Th>
            <Table.Td>
              {s.masks.length === 0 ? (
                <Text span size="sm" c="dimmed">
                  none (the default masks only)
                </Text>
              ) : (
                <ul style={LIST}>
                  {s.masks.map((m, i) => (
                    <li key={i}>
                      <Code>{m.pattern}</Code> → <Code>{m.replace ?? "[masked]"}</Code>
                    </li>
                  ))}
                </ul>
              )}
            </Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

function Comparison({ comparison: c }: { comparison: SnapshotComparison }) {
  const changedLinks = c.links.added.length + c.links.removed.length + c.links.changed.length;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="comparison-title">
      <Group gap="sm" mb="xs" wrap="wrap">
        <Title order={2} size="h4" id="comparison-title">
          Latest comparison
        </Title>
        <ComparisonBadge comparison={c} />
        <Text size="sm" c="dimmed">
          <Time value={c.created_at} /> · mail <Code>{c.email_id}</Code> · at most {percent(c.max_changed_ratio)} of pixels may change
        </Text>
      </Group>
      <Table verticalSpacing={4} fz="sm" aria-label="What the comparison found" mb="md" layout="fixed" style={{ overflowWrap: "anywhere" }}>
        <Table.Tbody>
          <Compared label="Subject" equal={c.subject.equal} baseline={c.subject.baseline} actual={c.subject.actual} />
          <Compared label="From" equal={c.from.equal} baseline={c.from.baseline} actual={c.from.actual} />
          <Table.Tr>
            <Table.Th scope="row" w={110}>
              Text
            </Table.Th>
            <Table.Td>
              {c.text.equal ? (
                <Same />
              ) : (
                <Code block data-testid="text-diff" style={{ whiteSpace: "pre-wrap" }}>
                  {c.text.diff
                    .map((h) => [`@@ -${h.old_start},${h.old_lines} +${h.new_start},${h.new_lines} @@`, ...h.lines].join("\n"))
                    .join("\n")}
                </Code>
              )}
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th scope="row">Links</Table.Th>
            <Table.Td>
              {changedLinks === 0 ? (
                <Same />
              ) : (
                <ul data-testid="link-changes" style={LIST}>
                  {c.links.added.map((l) => (
                    <LinkChange key={`a-${l.url}`} change="added" link={l} />
                  ))}
                  {c.links.removed.map((l) => (
                    <LinkChange key={`r-${l.url}`} change="removed" link={l} />
                  ))}
                  {c.links.changed.map((l) => (
                    <li key={`c-${l.path}`}>
                      <b>changed</b> <Code>{l.path}</Code> ({l.changes.join(", ")})
                    </li>
                  ))}
                </ul>
              )}
            </Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      <Stack gap="md">
        {c.visual.map((v) => {
          const name = `${v.width} px, ${v.scheme}`;
          const changed = v.changed_ratio > c.max_changed_ratio;
          return (
            <section key={name} aria-label={`Pictures at ${name}`} data-testid="visual">
              <Group gap="xs" mb={6}>
                <Title order={3} size="h5">
                  {name}
                </Title>
                <Badge variant="light" color={changed ? "red" : "teal"} tt="none" data-testid="changed-ratio">
                  {percent(v.changed_ratio)} changed
                </Badge>
              </Group>
              <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                <SnapshotImage url={v.baseline_url} caption="Baseline" alt={`Baseline at ${name}`} testId="baseline-image" />
                <SnapshotImage url={v.actual_url} caption="Latest" alt={`Latest mail at ${name}`} testId="actual-image" />
                <SnapshotImage url={v.diff_url} caption="Difference" alt={`Changed pixels at ${name}`} testId="diff-image" />
              </SimpleGrid>
            </section>
          );
        })}
      </Stack>
    </Paper>
  );
}

function Same() {
  return (
    <Text span size="sm" c="dimmed">
      same as the baseline
    </Text>
  );
}

function Compared({ label, equal, baseline, actual }: { label: string; equal: boolean; baseline: string; actual: string }) {
  return (
    <Table.Tr>
      <Table.Th scope="row" w={110}>
        {label}
      </Table.Th>
      <Table.Td style={{ overflowWrap: "anywhere" }}>
        {equal ? (
          <Same />
        ) : (
          <>
            <div>
              <b>baseline</b> {baseline}
            </div>
            <div>
              <b>latest</b> {actual}
            </div>
          </>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/** A link the mail gained or lost since the baseline: its text, if any, and its address. */
function LinkChange({ change, link }: { change: "added" | "removed"; link: { text?: string | null; url: string } }) {
  return (
    <li>
      <b>{change}</b> {link.text ? `“${link.text}” ` : ""}
      <Code>{link.url}</Code>
    </li>
  );
}
