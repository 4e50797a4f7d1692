import { Group, Paper, SimpleGrid, Text, Title } from "@mantine/core";
import { Time } from "../../components";
import { CheckResult, DomainStatus, type Domain } from "./status";

export function Checks({ domain }: { domain: Domain }) {
  const checked = domain.dns_last_checked_at !== null;
  const result = (ok: boolean) => (checked ? ok : null);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="dns-checks">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={2} size="h4" id="dns-checks">
          Current result
        </Title>
        <DomainStatus status={domain.status} />
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Group gap="xs">
          <Text size="sm">MX record</Text>
          <CheckResult ok={result(domain.mx_verified)} what="MX record" />
        </Group>
        <Group gap="xs">
          <Text size="sm">TXT record</Text>
          <CheckResult ok={result(domain.txt_verified)} what="TXT record" />
        </Group>
        <Group gap="xs">
          <Text size="sm">SPF (optional)</Text>
          <CheckResult ok={result(domain.spf_verified)} what="SPF record" />
        </Group>
      </SimpleGrid>
      <Text size="sm" c="dimmed" mt="sm">
        Last checked: <Time value={domain.dns_last_checked_at} />. Unverified domains are also checked every hour. In use by{" "}
        {domain.team_count} {domain.team_count === 1 ? "team" : "teams"}, {domain.active_inboxes} active{" "}
        {domain.active_inboxes === 1 ? "inbox" : "inboxes"}.
      </Text>
    </Paper>
  );
}
