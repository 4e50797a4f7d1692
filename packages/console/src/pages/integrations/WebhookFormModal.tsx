import { Checkbox, Modal, Stack, Switch, TextInput } from "@mantine/core";
import { useEffect } from "react";
import { CreateWebhookBody } from "@burnbox/contracts/src/webhook-dispatcher/webhooks.schemas";
import type { components } from "@burnbox/sdk";
import { ApiErrorAlert, DialogActions } from "../../components";
import { useContractForm } from "../../lib/contract-form";
import { teamKeys } from "./keys";
import type { TeamScope } from "./TeamGate";
import { useCreateWebhook, useUpdateWebhook } from "./api";

export type Webhook = components["schemas"]["Webhook"];
export type WebhookEvent = Webhook["events"][number];

export const EVENTS: { value: WebhookEvent; label: string }[] = [
  { value: "email.received", label: "A mail reaches an inbox of the team" },
  { value: "inbox.created", label: "An inbox is created" },
  { value: "inbox.expired", label: "An inbox's time is up and it is removed" },
];

/**
 * Create a webhook (`webhook` absent; the signing secret goes to `onCreated`, shown once) or edit
 * one (URL, events, enabled).
 */
export function WebhookFormModal({
  scope,
  opened,
  webhook,
  onClose,
  onCreated,
}: {
  scope: TeamScope;
  opened: boolean;
  webhook?: Webhook;
  onClose: () => void;
  onCreated?: (hook: { url: string; secret: string }) => void;
}) {
  const form = useContractForm(
    CreateWebhookBody,
    { url: "", events: [] as string[], active: true },
    {
      toBody: (v) => ({ url: v.url.trim(), events: v.events }),
      rules: (v) => ({
        url: /^https?:\/\/\S+$/i.test(v.url.trim()) ? undefined : "Enter an http:// or https:// URL",
        events: v.events.length ? undefined : "Pick at least one event",
      }),
    },
  );
  const path = { orgId: scope.orgId, teamId: scope.teamId };
  const invalidates = [teamKeys.webhooks(scope.teamId)];
  const create = useCreateWebhook({ path }, { invalidates });
  const update = useUpdateWebhook({ path, webhookId: webhook?.id }, { invalidates });

  useEffect(() => {
    if (!opened) return;
    form.setValues({ url: webhook?.url ?? "", events: webhook?.events ?? ["email.received"], active: webhook?.active ?? true });
    form.clearErrors();
    create.reset();
    update.reset();
    // only when the dialog opens or shows another webhook
  }, [opened, webhook?.id]);

  const submit = form.onSubmit(({ url, events, active }) => {
    const body = { url: url.trim(), events: events as WebhookEvent[] };
    if (webhook) update.mutate({ ...body, active }, { onSuccess: onClose });
    else create.mutate(body, { onSuccess: (h) => onCreated?.({ url: h.url, secret: h.secret }) });
  });
  const m = webhook ? update : create;

  return (
    <Modal
      closeButtonProps={{ "aria-label": "Close" }}
      opened={opened}
      onClose={onClose}
      title={webhook ? "Edit webhook" : "Add a webhook"}
      size="lg"
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label="Payload URL"
            description="BurnBox POSTs signed JSON here; private and local addresses are refused."
            placeholder="https://ci.example.com/hooks/burnbox"
            {...form.getInputProps("url")}
            required
            type="url"
            data-autofocus
          />
          <Checkbox.Group label="Events" {...form.getInputProps("events")} required>
            <Stack gap={6} mt="xs">
              {EVENTS.map((ev) => (
                <Checkbox key={ev.value} value={ev.value} label={ev.value} description={ev.label} />
              ))}
            </Stack>
          </Checkbox.Group>
          {webhook && (
            <Switch
              label="Enabled"
              description="A disabled webhook is sent nothing, and its deliveries cannot be redelivered."
              {...form.getInputProps("active", { type: "checkbox" })}
            />
          )}
          <ApiErrorAlert error={m.error} />
          <DialogActions confirmLabel={webhook ? "Save webhook" : "Add webhook"} loading={m.isPending} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
