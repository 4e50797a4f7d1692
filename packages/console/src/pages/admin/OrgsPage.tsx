import { Stack, Table, Text } from "@mantine/core";
import { IconBuildingSkyscraper, IconSearch } from "@tabler/icons-react";
import { EmptyState, ListSearch, ListView, PageHeader, Time, useListParams } from "../../components";
import { AdminGate } from "./AdminGate";
import { useAdminOrgs } from "./api";
import { ListTable } from "../../components/ListTable";

const TITLE = "All organizations";

export default function OrgsPage() {
  return (
    <AdminGate title={TITLE}>
      <Orgs />
    </AdminGate>
  );
}

function Orgs() {
  const params = useListParams({ filters: ["q"] as const });
  const q = params.filters.q ?? "";
  const list = useAdminOrgs({ q, params, paramsPerPage: params.perPage });
  return (
    <>
      <PageHeader title={TITLE} description="Every organization on this BurnBox, with its members, teams and domains." />
      <ListSearch
        params={params}
        filter="q"
        debounce={300}
        label="Search organizations"
        placeholder="Name or slug"
        leftSection={<IconSearch size={16} />}
        maw={360}
        mb="md"
      />
      <ListView
        query={list}
        loading={{ label: "Loading organizations" }}
        empty={
          <EmptyState title={q ? "No organization matches" : "No organizations"} icon={<IconBuildingSkyscraper size={28} stroke={1.5} />}>
            {q ? `No name or slug holds “${q}”.` : "Nobody has created an organization yet."}
          </EmptyState>
        }
        table={{ label: "Organizations", minWidth: 640 }}
        pagination={{ params, label: "Organization pages" }}
      >
        {(rows) => (
          <ListTable
            striped
            verticalSpacing="xs"
            aria-label="Organizations"
            columns={[
              "Organization",
              { label: "Members", ta: "right" },
              { label: "Teams", ta: "right" },
              { label: "Domains", ta: "right" },
              "Created",
            ]}
          >
            {rows.map((o) => (
              <Table.Tr key={o.id}>
                <Table.Td>
                  <Stack gap={0}>
                    <Text size="sm" fw={500}>
                      {o.name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {o.slug}
                    </Text>
                  </Stack>
                </Table.Td>
                <Table.Td ta="right">{o.member_count}</Table.Td>
                <Table.Td ta="right">{o.team_count}</Table.Td>
                <Table.Td ta="right">{o.domain_count}</Table.Td>
                <Table.Td>
                  <Time value={o.created_at} />
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </ListView>
    </>
  );
}
