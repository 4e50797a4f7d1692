// The inbox page's "SMTP behaviour" form and "SMTP log" list (extensions section 8).
import { Badge, Button, Checkbox, Code, Group, NumberInput, Pagination, Paper, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import type { FormErrors } from "@mantine/form";
import type { components } from "@burnbox/sdk";
import { UpdateInboxBody } from "@burnbox/contracts/src/inbox/inboxes.schemas";
import { useState } from "react";
import { ApiErrorAlert, EmptyState, FormErrorSummary, Time, TableScroll } from "../../components";
import { useContractForm } from "../../lib/contract-form";
import { useValuesFrom } from "../../lib/use-values-from";
import { keys, type Inbox, useSmtpLog, useUpdateSmtpBehaviour, type SmtpBehaviour } from "./api";

type SmtpAttempt = components["schemas"]["SmtpAttempt"];

/** The parts of the behaviour that take one whole number, by their field in the body. */
type NumberPart = "defer_first" | "delay_ms" | "max_size_bytes";

/**
 * Which parts are ticked, and the body's fields under `smtp_behaviour` as typed (NumberInput gives
 * "" when empty): the form's paths are the body's, so the contract's errors land under their fields.
 */
interface Values extends Record<string, unknown> {
  on: { reject_rcpt: boolean } & Record<NumberPart, boolean>;
  smtp_behaviour: { reject_rcpt: { code: number | string; message: string } } & Record<NumberPart, number | string>;
}

function valuesOf(b: SmtpBehaviour | null | undefined): Values {
  return {
    on: {
      reject_rcpt: b?.reject_rcpt != null,
      defer_first: b?.defer_first != null,
      delay_ms: b?.delay_ms != null,
      max_size_bytes: b?.max_size_bytes != null,
    },
    smtp_behaviour: {
      reject_rcpt: { code: b?.reject_rcpt?.code ?? 550, message: b?.reject_rcpt?.message ?? "" },
      defer_first: b?.defer_first ?? 1,
      delay_ms: b?.delay_ms ?? 1000,
      max_size_bytes: b?.max_size_bytes ?? 1_000_000,
    },
  };
}

const num = (v: number | string): number => (typeof v === "number" ? v : Number.parseFloat(v));

/** The behaviour the form sends: the ticked parts, or null (normal) when none is. */
function behaviourOf(v: Values): SmtpBehaviour | null {
  const f = v.smtp_behaviour;
  const b: SmtpBehaviour = {};
  if (v.on.reject_rcpt) b.reject_rcpt = { code: num(f.reject_rcpt.code), message: f.reject_rcpt.message };
  if (v.on.defer_first) b.defer_first = num(f.defer_first);
  if (v.on.delay_ms) b.delay_ms = num(f.delay_ms);
  if (v.on.max_size_bytes) b.max_size_bytes = num(f.max_size_bytes);
  return Object.keys(b).length > 0 ? b : null;
}

/** The parts of the behaviour that take one whole number: how each reads in the form. */
const TOGGLED_NUMBERS: Array<
  { part: NumberPart } & Pick<
    Parameters<typeof ToggledNumber>[0],
    "label" | "description" | "numberLabel" | "range" | "thousandSeparator" | "width"
  >
> = [
  {
    part: "defer_first",
    label: "Defer the first attempts",
    description: "The first n attempts of each message get 451 after DATA, then it is accepted, as greylisting does.",
    numberLabel: "Attempts to defer",
    range: "1–10",
  },
  {
    part: "delay_ms",
    label: "Delay the reply to DATA",
    description: "The sender waits this long after sending the message before it gets the final reply.",
    numberLabel: "Delay (ms)",
    range: "0–30000",
  },
  {
    part: "max_size_bytes",
    label: "Limit the message size",
    description: "A larger message gets 552 after DATA (or at RCPT TO when SIZE= declares more).",
    numberLabel: "Maximum size (bytes)",
    range: "1 or more",
    thousandSeparator: " ",
    width: 240,
  },
];

/** The fields' names in the error summary, by their path. */
const LABELS: Record<string, string> = {
  "smtp_behaviour.reject_rcpt.code": "Reply code",
  "smtp_behaviour.reject_rcpt.message": "Reply message",
  ...Object.fromEntries(TOGGLED_NUMBERS.map((t) => [`smtp_behaviour.${t.part}`, t.numberLabel])),
};

/** A ticked number left empty: said in words (the contract's own message would be "received NaN"). */
function blankNumbers(v: Values): FormErrors {
  const blank = (on: boolean, value: number | string) => (on && value === "" ? "Enter a number" : undefined);
  return {
    "smtp_behaviour.reject_rcpt.code": blank(v.on.reject_rcpt, v.smtp_behaviour.reject_rcpt.code),
    ...Object.fromEntries(TOGGLED_NUMBERS.map(({ part }) => [`smtp_behaviour.${part}`, blank(v.on[part], v.smtp_behaviour[part])])),
  };
}

/** One line per set field, or "Normal". */
function summaryOf(b: SmtpBehaviour | null | undefined): string[] {
  const out: string[] = [];
  if (b?.reject_rcpt) out.push(`RCPT TO refused: ${b.reject_rcpt.code} ${b.reject_rcpt.message}`);
  if (b?.defer_first != null) out.push(`First ${b.defer_first} attempt(s) of each message deferred (451)`);
  if (b?.delay_ms != null) out.push(`Reply to DATA held ${b.delay_ms} ms`);
  if (b?.max_size_bytes != null) out.push(`Messages over ${b.max_size_bytes} bytes refused (552)`);
  return out;
}

export function SmtpBehaviourSection({ inbox }: { inbox: Inbox }) {
  const current = (inbox as Inbox & { smtp_behaviour?: SmtpBehaviour | null }).smtp_behaviour ?? null;
  // `PATCH /inboxes/{id} {smtp_behaviour}`: what the API would refuse (a code past 599) is refused here
  const form = useContractForm<Values>(UpdateInboxBody, valuesOf(current), {
    toBody: (v) => ({ smtp_behaviour: behaviourOf(v) }),
    rules: blankNumbers,
  });
  // the stored behaviour changed (saved, reset, or read again): the form shows it
  useValuesFrom(
    JSON.stringify(current),
    () => valuesOf(current),
    (v) => {
      form.setValues(v);
      form.clearErrors();
    },
  );
  const save = useUpdateSmtpBehaviour({ inboxId: inbox.id }, { invalidates: [keys.inbox(inbox.id), keys.lists()] });
  const values = form.getValues();
  /** Ticks a part on or off; an error of a part turned off no longer holds the form back. */
  const toggle = (part: keyof Values["on"], on: boolean) => {
    form.setFieldValue(`on.${part}`, on);
    form.setErrors(Object.fromEntries(Object.entries(form.errors).filter(([path]) => !path.startsWith(`smtp_behaviour.${part}`))));
  };
  const summary = summaryOf(current);

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="smtp-behaviour-heading">
      <form onSubmit={form.onSubmit((v) => save.mutate(behaviourOf(v)))} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h4" id="smtp-behaviour-heading">
            SMTP behaviour
          </Title>
          <Text size="sm" c="dimmed">
            Make the SMTP intake misbehave for this inbox, to test how your sender copes. Each part is off unless ticked.
          </Text>
          <div data-testid="smtp-behaviour-current">
            {summary.length === 0 ? (
              <Text size="sm">
                <Badge variant="light" color="gray" mr="xs">
                  Normal
                </Badge>
                Mail is accepted as usual.
              </Text>
            ) : (
              <Stack gap={2}>
                <Badge variant="light" color="orange">
                  Misbehaving
                </Badge>
                {summary.map((s) => (
                  <Text size="sm" key={s}>
                    {s}
                  </Text>
                ))}
              </Stack>
            )}
          </div>

          <Checkbox
            label="Reject RCPT TO"
            description="The sender's RCPT TO for this inbox gets exactly this code and message; other recipients are unaffected."
            checked={values.on.reject_rcpt}
            onChange={(e) => toggle("reject_rcpt", e.currentTarget.checked)}
          />
          {values.on.reject_rcpt ? (
            <Group align="flex-start" pl="xl">
              <NumberInput
                label="Reply code"
                description="450–599"
                {...form.getInputProps("smtp_behaviour.reject_rcpt.code")}
                allowDecimal={false}
                w={140}
              />
              <TextInput label="Reply message" {...form.getInputProps("smtp_behaviour.reject_rcpt.message")} style={{ flex: 1 }} />
            </Group>
          ) : null}

          {TOGGLED_NUMBERS.map(({ part, ...text }) => (
            <ToggledNumber
              key={part}
              {...text}
              checked={values.on[part]}
              onToggle={(checked) => toggle(part, checked)}
              input={form.getInputProps(`smtp_behaviour.${part}`)}
            />
          ))}

          <FormErrorSummary errors={form.errors} labels={LABELS} />
          <ApiErrorAlert error={save.error} />
          {save.isSuccess && !save.isPending ? (
            <Text size="sm" role="status">
              Saved.
            </Text>
          ) : null}
          <Group gap="xs">
            <Button type="submit" loading={save.isPending && save.variables !== null}>
              Save behaviour
            </Button>
            <Button
              variant="default"
              loading={save.isPending && save.variables === null}
              disabled={current === null}
              onClick={() => save.mutate(null)}
            >
              Reset to normal
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

export function SmtpLogSection({ inboxId }: { inboxId: string }) {
  const [page, setPage] = useState(1);
  const log = useSmtpLog({ inboxId, page }, { placeholderData: (prev) => prev });
  const data = log.data;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="smtp-log-heading">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4" id="smtp-log-heading">
            SMTP log
          </Title>
          <Button variant="subtle" size="xs" onClick={() => void log.refetch()} loading={log.isFetching}>
            Refresh log
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          Attempts this inbox's SMTP behaviour refused or deferred, newest first.
        </Text>
        <ApiErrorAlert error={log.error} />
        {data && data.data.length === 0 ? (
          <EmptyState title="No refused or deferred attempts">Attempts the behaviour answers with an error show here.</EmptyState>
        ) : null}
        {data && data.data.length > 0 ? (
          <TableScroll label="SMTP log" minWidth={640}>
            <Table verticalSpacing="xs" aria-label="SMTP log">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Time</Table.Th>
                  <Table.Th>MAIL FROM</Table.Th>
                  <Table.Th>RCPT TO</Table.Th>
                  <Table.Th>Code</Table.Th>
                  <Table.Th>Reply and transcript</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.data.map((a) => (
                  <AttemptRow key={a.id} attempt={a} />
                ))}
              </Table.Tbody>
            </Table>
          </TableScroll>
        ) : null}
        {data && data.total_pages > 1 ? (
          <Pagination
            total={data.total_pages}
            value={page}
            onChange={setPage}
            getControlProps={(c) => ({ "aria-label": c === "previous" ? "Previous log page" : c === "next" ? "Next log page" : c })}
            getItemProps={(p) => ({ "aria-label": `Log page ${p}` })}
          />
        ) : null}
      </Stack>
    </Paper>
  );
}

/** A part of the behaviour that is off unless ticked, with the one whole number it takes when on. */
function ToggledNumber(props: {
  label: string;
  description: string;
  checked: boolean;
  onToggle: (on: boolean) => void;
  numberLabel: string;
  /** the allowed values, in words (the number's description) */
  range: string;
  /** the number's value, change handler and error (the form's `getInputProps`) */
  input: ReturnType<ReturnType<typeof useContractForm>["getInputProps"]>;
  thousandSeparator?: string;
  width?: number;
}) {
  return (
    <>
      <Checkbox
        label={props.label}
        description={props.description}
        checked={props.checked}
        onChange={(e) => props.onToggle(e.currentTarget.checked)}
      />
      {props.checked ? (
        <NumberInput
          pl="xl"
          label={props.numberLabel}
          description={props.range}
          {...props.input}
          allowDecimal={false}
          thousandSeparator={props.thousandSeparator}
          w={props.width ?? 200}
        />
      ) : null}
    </>
  );
}

function AttemptRow({ attempt: a }: { attempt: SmtpAttempt }) {
  return (
    // a row opened to its transcript is tall: its other cells stay beside the reply, at the top
    <Table.Tr data-testid="smtp-attempt" style={{ verticalAlign: "top" }}>
      <Table.Td style={{ whiteSpace: "nowrap" }}>
        <Time value={a.at} />
      </Table.Td>
      <Table.Td style={{ overflowWrap: "anywhere" }}>{a.mail_from || "<>"}</Table.Td>
      <Table.Td style={{ overflowWrap: "anywhere" }}>{a.rcpt_to}</Table.Td>
      <Table.Td>{a.code}</Table.Td>
      <Table.Td>
        <Text size="sm" data-testid="smtp-attempt-reply">
          {a.reply}
        </Text>
        <details>
          <summary style={{ cursor: "pointer", fontSize: "var(--mantine-font-size-sm)" }}>Transcript</summary>
          <Text size="xs" c="dimmed">
            From {a.transcript.client_ip}
            {a.transcript.helo ? ` (HELO ${a.transcript.helo})` : ""}
            {a.transcript.tls ? ", TLS" : ", no TLS"}
            {a.message_id ? `, Message-ID ${a.message_id}` : ""}
          </Text>
          <Code block data-testid="smtp-transcript">
            {a.transcript.lines.map((l) => `${l.dir === "c" ? "C:" : "S:"} ${l.text}`).join("\n")}
          </Code>
        </details>
      </Table.Td>
    </Table.Tr>
  );
}
