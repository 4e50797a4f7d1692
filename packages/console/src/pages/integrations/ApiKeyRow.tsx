import { Badge, Checkbox, Group, Menu, Table, Text, Tooltip } from "@mantine/core";
import { IconPlayerPause, IconPlayerPlay, IconRefresh, IconTrash } from "@tabler/icons-react";
import { Time } from "../../components";
import { STATUS_LABEL, type ApiKey, type KeyStatus } from "./key-status";
import { RowMenu } from "../../components/RowMenu";

/** One key of the list: its name and prefix, scopes, status, use, expiry and (unless revoked) its actions menu. */
export function ApiKeyRow({
  apiKey,
  status,
  selected,
  onSelect,
  onRotate,
  onToggle,
  onRevoke,
}: {
  apiKey: ApiKey;
  status: KeyStatus;
  selected: boolean;
  onSelect: () => void;
  onRotate: () => void;
  onToggle: () => void;
  onRevoke: () => void;
}) {
  return (
    <Table.Tr>
      <Table.Td>
        <Checkbox aria-label={`Select ${apiKey.name}`} checked={selected} disabled={status === "revoked"} onChange={onSelect} />
      </Table.Td>
      <Table.Td>
        <Text fw={500}>{apiKey.name}</Text>
        <Text size="xs" c="dimmed" ff="monospace">
          {apiKey.key_prefix}…
        </Text>
      </Table.Td>
      <Table.Td>
        <Scopes scopes={apiKey.scopes} />
      </Table.Td>
      <Table.Td>
        <Badge color={STATUS_LABEL[status].color} variant="dot">
          {STATUS_LABEL[status].label}
        </Badge>
      </Table.Td>
      <Table.Td ta="right">{apiKey.request_count.toLocaleString()}</Table.Td>
      <Table.Td>
        {apiKey.last_used_at ? (
          <>
            <Time value={apiKey.last_used_at} />
            {apiKey.last_used_ip && (
              <Text size="xs" c="dimmed" ff="monospace">
                {apiKey.last_used_ip}
              </Text>
            )}
          </>
        ) : (
          <Text size="sm" c="dimmed">
            never
          </Text>
        )}
      </Table.Td>
      <Table.Td>{apiKey.expires_at ? <Time value={apiKey.expires_at} mode="absolute" /> : "never"}</Table.Td>
      <Table.Td>
        {status !== "revoked" && <KeyActions apiKey={apiKey} onRotate={onRotate} onToggle={onToggle} onRevoke={onRevoke} />}
      </Table.Td>
    </Table.Tr>
  );
}

function Scopes({ scopes }: { scopes: string[] }) {
  const shown = scopes.slice(0, 3);
  const rest = scopes.length - shown.length;
  return (
    <Group gap={4} wrap="wrap" maw={280}>
      {shown.map((s) => (
        <Badge key={s} variant="outline" color="gray" tt="none" size="sm">
          {s}
        </Badge>
      ))}
      {rest > 0 && (
        <Tooltip label={scopes.slice(3).join(", ")} withArrow multiline maw={320}>
          <Badge variant="light" color="gray" size="sm" tabIndex={0} aria-label={`and ${rest} more: ${scopes.slice(3).join(", ")}`}>
            +{rest}
          </Badge>
        </Tooltip>
      )}
      {scopes.length === 0 && (
        <Text size="sm" c="dimmed">
          none
        </Text>
      )}
    </Group>
  );
}

function KeyActions({
  apiKey,
  onRotate,
  onToggle,
  onRevoke,
}: {
  apiKey: ApiKey;
  onRotate: () => void;
  onToggle: () => void;
  onRevoke: () => void;
}) {
  return (
    <RowMenu label={`Actions for ${apiKey.name}`} withArrow>
      <Menu.Item leftSection={<IconRefresh size={16} />} onClick={onRotate}>
        Rotate
      </Menu.Item>
      <Menu.Item leftSection={apiKey.is_active ? <IconPlayerPause size={16} /> : <IconPlayerPlay size={16} />} onClick={onToggle}>
        {apiKey.is_active ? "Disable" : "Enable"}
      </Menu.Item>
      <Menu.Divider />
      <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={onRevoke}>
        Revoke
      </Menu.Item>
    </RowMenu>
  );
}
