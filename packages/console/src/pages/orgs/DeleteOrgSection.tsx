import { Button, Modal, PasswordInput, Stack, Switch, Text, TextInput, Title } from "@mantine/core";
import { useState } from "react";
import { DeleteOrgBody } from "@burnbox/contracts/src/tenancy/orgs.schemas";
import { useContractForm } from "../../lib/contract-form";
import { useNavigate } from "react-router";
import { workspaceKeys } from "../../api/keys";
import { ApiErrorAlert } from "../../components";
import type { Org } from "./OrgFrame";
import { useDeleteOrg } from "./api";

const bodyOf = (v: { sso_only: boolean; password: string; confirm: string }) =>
  v.sso_only ? { confirm: v.confirm.trim() } : { password: v.password };

/** Deleting the org (`DELETE /orgs/:id`, `org.delete`): confirmed by the password, or the slug for SSO-only accounts. */
export function DeleteOrgSection({ org }: { org: Org }) {
  const navigate = useNavigate();
  const [opened, setOpened] = useState(false);
  const form = useContractForm(DeleteOrgBody, { sso_only: false, password: "", confirm: "" }, { toBody: bodyOf });
  const ssoOnly = form.getValues().sso_only;
  const remove = useDeleteOrg(
    { orgId: org.id },
    { invalidates: [workspaceKeys.orgs()], onSuccess: () => void navigate("/orgs", { replace: true }) },
  );
  const submit = form.onSubmit((v) => remove.mutate(bodyOf(v)));
  return (
    <Stack maw={520} component="section" aria-labelledby="delete-org">
      <Title order={2} size="h4" id="delete-org">
        Delete the organization
      </Title>
      <Text size="sm" c="dimmed">
        Removes its teams, domains, inboxes, mail, keys and webhooks for good.
      </Text>
      <div>
        <Button color="red" variant="outline" onClick={() => setOpened(true)}>
          Delete organization
        </Button>
      </div>
      <Modal closeButtonProps={{ "aria-label": "Close" }} opened={opened} onClose={() => setOpened(false)} title={`Delete ${org.name}?`}>
        <form onSubmit={submit}>
          <Stack>
            <Text size="sm">Everything in it is deleted and cannot be brought back. Confirm it is you.</Text>
            <Switch
              label="I sign in only with SSO"
              checked={ssoOnly}
              onChange={(e) => form.setValues({ sso_only: e.currentTarget.checked, password: "", confirm: "" })}
            />
            {ssoOnly ? (
              <TextInput label={`Type the organization's slug (${org.slug})`} required {...form.getInputProps("confirm")} />
            ) : (
              <PasswordInput label="Your password" autoComplete="current-password" required {...form.getInputProps("password")} />
            )}
            <ApiErrorAlert error={remove.error} />
            <Button type="submit" color="red.9" loading={remove.isPending}>
              Delete for good
            </Button>
          </Stack>
        </form>
      </Modal>
    </Stack>
  );
}
