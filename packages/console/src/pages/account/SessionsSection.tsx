import { Badge, Button, Group, Table, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { ListView, Time, useListParams } from "../../components";
import { ListTable } from "../../components/ListTable";
import { describeAgent } from "../../lib/user-agent";
import { Section } from "./Section";
import { useSessions, useRevokeSession, useRevokeOtherSessions } from "./api";

/** `GET /auth/sessions` (paged, `?sessions_page=`), `DELETE /auth/sessions/:id`, `DELETE /auth/sessions` (all but this one). */
export function SessionsSection() {
  const list = useListParams({ pageParam: "sessions_page", perPage: 10 });
  const sessions = useSessions({ list, listPerPage: list.perPage });
  const revoke = useRevokeSession({
    invalidates: [["account", "sessions"]],
    onSuccess: () => notifications.show({ message: "Session signed out" }),
  });
  const revokeOthers = useRevokeOtherSessions({
    invalidates: [["account", "sessions"]],
    onSuccess: () => notifications.show({ message: "Your other sessions were signed out" }),
  });
  return (
    <Section id="sessions" title="Sessions" description="Where your account is signed in.">
      <ListView
        query={sessions}
        error={sessions.error ?? revoke.error ?? revokeOthers.error}
        loading={{ label: "Loading sessions" }}
        empty={null}
        table={{ label: "Sessions", minWidth: 520 }}
        pagination={{ params: list, label: "Session pages" }}
      >
        {(rows) => (
          <ListTable verticalSpacing="xs" aria-labelledby="sessions-title" columns={["Device", "IP address", "Last used"]} actions>
            {rows.map((s) => (
              <Table.Tr key={s.id}>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Text size="sm">{describeAgent(s.user_agent)}</Text>
                    {s.current && (
                      <Badge size="sm" variant="light">
                        this session
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{s.ip_address}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">
                    <Time value={s.last_used_at} />
                  </Text>
                </Table.Td>
                <Table.Td ta="right">
                  {!s.current && (
                    <Button
                      size="xs"
                      variant="light"
                      color="red"
                      aria-label={`Sign out ${describeAgent(s.user_agent)} at ${s.ip_address}`}
                      loading={revoke.isPending && revoke.variables === s.id}
                      onClick={() => revoke.mutate(s.id)}
                    >
                      Sign out
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </ListView>
      {(sessions.data?.total ?? 0) > 1 && (
        <Group>
          <Button variant="default" color="red" loading={revokeOthers.isPending} onClick={() => revokeOthers.mutate()}>
            Sign out all other sessions
          </Button>
        </Group>
      )}
    </Section>
  );
}
