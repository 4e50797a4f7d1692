import { Anchor, Badge, Button, Group, Modal, Stack, Table, Text, TextInput, VisuallyHidden } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { IconBuilding, IconPlus } from "@tabler/icons-react";
import { CreateOrgBody } from "@burnbox/contracts/src/tenancy/orgs.schemas";
import { useContractForm } from "../../lib/contract-form";
import { Link, useNavigate } from "react-router";
import { workspaceKeys } from "../../api/keys";
import { useWorkspace } from "../../api/workspace";
import { ApiErrorAlert, DialogActions, EmptyState, PageHeader, TableScroll, useParamOnce } from "../../components";
import { useCreateOrg } from "./api";

/** `/orgs`: the caller's orgs with their role (`GET /orgs`), create one (`POST /orgs`), and choose the one to work in. */
export default function OrgsPage() {
  const w = useWorkspace();
  // `/orgs?new=1` (the "Create an organization" of a page that needs one) opens the create form
  const linkedNew = useParamOnce("new") === "1";
  const [opened, { open, close }] = useDisclosure(linkedNew);
  const create = (
    <Button leftSection={<IconPlus size={16} />} onClick={open}>
      Create organization
    </Button>
  );
  return (
    <>
      <PageHeader
        title="Organizations"
        description="The organizations you belong to. The one you work in is chosen in the header."
        actions={create}
      />
      {w.orgs.length === 0 && !w.isLoading ? (
        <EmptyState title="No organization yet" icon={<IconBuilding size={28} stroke={1.5} />} action={create}>
          Create one, or ask an owner of an existing organization for an invite.
        </EmptyState>
      ) : (
        <TableScroll label="Organizations" minWidth={560}>
          <Table verticalSpacing="sm" aria-label="Your organizations">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Slug</Table.Th>
                <Table.Th>Your role</Table.Th>
                <Table.Th>Pages</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Working in</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {w.orgs.map((o) => (
                <Table.Tr key={o.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/orgs/${o.id}/settings`} fw={500}>
                      {o.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" c="dimmed">
                      {o.slug}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light">{o.role}</Badge>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="sm">
                      <Anchor component={Link} to={`/orgs/${o.id}/members`} size="sm" aria-label={`Members of ${o.name}`}>
                        Members
                      </Anchor>
                      <Anchor component={Link} to={`/orgs/${o.id}/invites`} size="sm" aria-label={`Invites of ${o.name}`}>
                        Invites
                      </Anchor>
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    {w.org?.id === o.id ? (
                      <Badge color="green" variant="light">
                        Working in
                      </Badge>
                    ) : (
                      <Button size="xs" variant="default" onClick={() => w.selectOrg(o.id)} aria-label={`Work in ${o.name}`}>
                        Work in this
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableScroll>
      )}
      <CreateOrgModal opened={opened} onClose={close} />
    </>
  );
}

function CreateOrgModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const w = useWorkspace();
  const navigate = useNavigate();
  const form = useContractForm(CreateOrgBody, { name: "" }, { toBody: (v) => ({ name: v.name.trim() }) });
  const create = useCreateOrg({
    invalidates: [workspaceKeys.orgs()],
    onSuccess: (org) => {
      w.selectOrg(org.id);
      onClose();
      form.reset();
      void navigate(`/orgs/${org.id}/settings`);
    },
  });
  return (
    <Modal closeButtonProps={{ "aria-label": "Close" }} opened={opened} onClose={onClose} title="Create an organization">
      <form onSubmit={form.onSubmit((values) => create.mutate({ name: values.name.trim() }))}>
        <Stack>
          <Text size="sm">You become its owner. Teams, domains and members come next.</Text>
          <TextInput label="Name" required data-autofocus {...form.getInputProps("name")} />
          <ApiErrorAlert error={create.error} />
          <DialogActions confirmLabel="Create" loading={create.isPending} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
