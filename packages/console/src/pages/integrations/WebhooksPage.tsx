import { Anchor, Badge, Button, Group, Menu, Table, Text } from "@mantine/core";
import { IconList, IconPencil, IconPlus, IconTrash, IconWebhook } from "@tabler/icons-react";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { ConfirmModal, EmptyState, PageHeader, Time, useClampedPage, useListParams, ListView } from "../../components";
import { teamKeys } from "./keys";
import { SecretOnceModal } from "./SecretOnceModal";
import { TeamGate, type TeamScope } from "./TeamGate";
import { WebhookFormModal, type Webhook } from "./WebhookFormModal";
import { useWebhooks, useDeleteWebhook } from "./api";
import { ListTable } from "../../components/ListTable";
import { RowMenu } from "../../components/RowMenu";

export default function WebhooksPage() {
  return <TeamGate title="Webhooks">{(scope) => <Webhooks scope={scope} />}</TeamGate>;
}

function Webhooks({ scope }: { scope: TeamScope }) {
  const path = { orgId: scope.orgId, teamId: scope.teamId };
  const list = useListParams();
  const q = useWebhooks({ scopeTeamId: scope.teamId, list, listPerPage: list.perPage, path });
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Webhook | undefined>();
  const [deleting, setDeleting] = useState<Webhook | undefined>();
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const remove = useDeleteWebhook({ path }, { invalidates: [teamKeys.webhooks(scope.teamId)], onSuccess: () => setDeleting(undefined) });
  useClampedPage(list, q.data);

  return (
    <>
      <PageHeader
        title="Webhooks"
        description={`Signed HTTP callbacks for the events of the team ${scope.teamName}.`}
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            Add webhook
          </Button>
        }
      />
      <ListView
        query={q}
        loading={{ label: "Loading webhooks", height: 160 }}
        empty={
          <EmptyState
            title="No webhooks yet"
            icon={<IconWebhook size={28} stroke={1.5} />}
            action={<Button onClick={() => setCreating(true)}>Add webhook</Button>}
          >
            Add a webhook to have BurnBox POST each new mail (or inbox created or expired) to your service, signed with a secret you get
            once.
          </EmptyState>
        }
        table={{ label: "Webhooks", minWidth: 760 }}
        pagination={{ params: list, label: "Webhook pages" }}
      >
        {(rows) => (
          <ListTable
            striped
            highlightOnHover
            verticalSpacing="xs"
            columns={["URL", "Events", "Status", { label: "Failures", ta: "right" }, "Last attempt"]}
            actions
          >
            {rows.map((hook) => (
              <Table.Tr key={hook.id}>
                <Table.Td maw={320}>
                  <Anchor
                    component={Link}
                    to={`/webhooks/${hook.id}`}
                    style={{ wordBreak: "break-all" }}
                    aria-label={`Delivery log of ${hook.url}`}
                  >
                    {hook.url}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {hook.events.map((ev) => (
                      <Badge key={ev} variant="outline" color="gray" tt="none" size="sm">
                        {ev}
                      </Badge>
                    ))}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Badge color={hook.active ? "teal" : "gray"} variant="dot">
                    {hook.active ? "Enabled" : "Disabled"}
                  </Badge>
                </Table.Td>
                <Table.Td ta="right">{hook.failure_count}</Table.Td>
                <Table.Td>
                  {hook.last_attempt_at ? (
                    <Group gap={6} wrap="nowrap">
                      {hook.last_status !== null && (
                        <Badge variant="dot" color={hook.last_status >= 200 && hook.last_status < 300 ? "teal" : "red"}>
                          {hook.last_status}
                        </Badge>
                      )}
                      <Time value={hook.last_attempt_at} />
                    </Group>
                  ) : (
                    <Text size="sm" c="dimmed">
                      none yet
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <RowMenu label={`Actions for ${hook.url}`} withArrow>
                    <Menu.Item leftSection={<IconList size={16} />} onClick={() => void navigate(`/webhooks/${hook.id}`)}>
                      Delivery log
                    </Menu.Item>
                    <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => setEditing(hook)}>
                      Edit
                    </Menu.Item>
                    <Menu.Divider />
                    <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => setDeleting(hook)}>
                      Delete
                    </Menu.Item>
                  </RowMenu>
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </ListView>

      <WebhookFormModal
        scope={scope}
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(h) => {
          setCreating(false);
          setSecret(h);
        }}
      />
      <WebhookFormModal scope={scope} opened={editing !== undefined} webhook={editing} onClose={() => setEditing(undefined)} />
      <SecretOnceModal
        title="Webhook added"
        label="Signing secret"
        copyLabel="Copy signing secret"
        value={secret?.secret ?? null}
        onClose={() => setSecret(null)}
      >
        {secret &&
          `Deliveries to ${secret.url} carry X-Service-Signature-256 (t=send time, v1=hex HMAC-SHA256 of t + "." + the raw body, keyed with this secret; verifyWebhook in @burnbox/sdk checks it).`}
      </SecretOnceModal>
      <ConfirmModal
        opened={deleting !== undefined}
        title="Delete this webhook?"
        confirmLabel="Delete webhook"
        loading={remove.isPending}
        error={remove.error}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => {
          remove.reset();
          setDeleting(undefined);
        }}
      >
        {deleting && `${deleting.url} gets no more deliveries, pending ones are dropped, and its delivery log goes with it.`}
      </ConfirmModal>
    </>
  );
}
