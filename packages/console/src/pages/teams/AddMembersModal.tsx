import { Button, Group, Modal, Select, Stack, Text, Textarea } from "@mantine/core";
import { BulkAddTeamMembersBody } from "@burnbox/contracts/src/tenancy/teams.schemas";
import { useContractForm } from "../../lib/contract-form";
import { firstItemError } from "../../lib/item-errors";
import { workspaceKeys } from "../../api/keys";
import type { OrgWithRole, Team } from "../../api/workspace";
import { ApiErrorAlert, DialogActions } from "../../components";
import { parseAddresses } from "./addresses";
import { teamsKeys } from "./keys";
import { useMemberSuggestions, useAddMember, useAddMembers } from "./api";

/** The request the addresses make (one address is the same check as `POST …/members`). */
const membersBody = (v: { text: string; role: string }) => ({ members: parseAddresses(v.text).map((email) => ({ email, role: v.role })) });

export function AddMembersModal({
  org,
  team,
  opened,
  roles,
  onClose,
  onDone,
}: {
  org: OrgWithRole;
  team: Team;
  opened: boolean;
  roles: { value: string; label: string }[];
  onClose: () => void;
  onDone: (n: { text: string; details: string[] }) => void;
}) {
  const path = { orgId: org.id, teamId: team.id };
  const form = useContractForm(BulkAddTeamMembersBody, { text: "", role: "member" }, { toBody: membersBody });
  const { text, role } = form.getValues();
  const setText = (next: (t: string) => string) => form.setFieldValue("text", next);
  const suggestions = useMemberSuggestions({ orgId: org.id, teamId: team.id }, { enabled: opened });
  const done = () => {
    form.setFieldValue("text", "");
    onClose();
  };
  const addOne = useAddMember(
    { path },
    {
      invalidates: [teamsKeys.all, workspaceKeys.teams(org.id), workspaceKeys.teamMembership(org.id, team.id)],
      onSuccess: (m) => {
        done();
        onDone({ text: `Added ${m.email}.`, details: [] });
      },
    },
  );
  const addMany = useAddMembers(
    { path },
    {
      invalidates: [teamsKeys.all, workspaceKeys.teams(org.id), workspaceKeys.teamMembership(org.id, team.id)],
      onSuccess: (r) => {
        done();
        onDone({
          text: `Added ${r.added.length} ${r.added.length === 1 ? "member" : "members"}.`,
          details: r.skipped.map((s) => `${s.identifier}: skipped (${s.reason.replaceAll("_", " ")})`),
        });
      },
    },
  );
  const addresses = parseAddresses(text);
  const candidates = suggestions.data?.data ?? [];
  return (
    <Modal closeButtonProps={{ "aria-label": "Close" }} opened={opened} onClose={onClose} title="Add members" size="lg">
      <form
        onSubmit={form.onSubmit(() => {
          if (addresses.length === 1) addOne.mutate({ email: addresses[0]!, role });
          else addMany.mutate({ emails: addresses, role });
        })}
      >
        <Stack>
          <Textarea
            label="Email addresses"
            description="One per line, or separated by commas (up to 50). Each must already be a member of the organization."
            autosize
            minRows={3}
            {...form.getInputProps("text")}
            error={firstItemError(form.errors, "members", addresses)}
            data-autofocus
          />
          {candidates.length > 0 && (
            <Stack gap={4}>
              <Text size="sm">Members of the organization not in this team:</Text>
              <Group gap="xs">
                {candidates.map((c) => (
                  <Button
                    key={c.user_id}
                    size="compact-sm"
                    variant={addresses.includes(c.email) ? "filled" : "default"}
                    aria-pressed={addresses.includes(c.email)}
                    onClick={() =>
                      setText((t) =>
                        addresses.includes(c.email)
                          ? parseAddresses(t)
                              .filter((a) => a !== c.email)
                              .join("\n")
                          : [...parseAddresses(t), c.email].join("\n"),
                      )
                    }
                  >
                    {c.email}
                  </Button>
                ))}
              </Group>
            </Stack>
          )}
          <Select label="Role" data={roles} value={role} allowDeselect={false} onChange={(v) => v && form.setFieldValue("role", v)} />
          <ApiErrorAlert error={addOne.error ?? addMany.error ?? suggestions.error} />
          <DialogActions
            confirmLabel={addresses.length > 1 ? `Add ${addresses.length} members` : "Add member"}
            disabled={addresses.length === 0 || addresses.length > 50}
            loading={addOne.isPending || addMany.isPending}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
