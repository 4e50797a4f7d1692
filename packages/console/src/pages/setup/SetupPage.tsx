import {
  Alert,
  Button,
  Checkbox,
  Code,
  Group,
  List,
  NumberInput,
  PasswordInput,
  SegmentedControl,
  Stack,
  Stepper,
  Switch,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { IconCircleCheck, IconPlugConnectedX } from "@tabler/icons-react";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent, type ReactNode } from "react";
import { BurnBoxError, type components } from "@burnbox/sdk";
import { unwrap, useApi, useApiQuery } from "../../api/query";
import { ApiErrorAlert, useParamOnce } from "../../components";
import { describePolicy } from "../../lib/password-policy";
import { useFinishSignIn, useSsoStatus } from "../../api/auth";

type Probe = { success: boolean; message: string; response_time_ms: number };
type Mailer = components["schemas"]["UpdateMailerConfigRequest"];
type Storage = components["schemas"]["UpdateStorageConfigRequest"];

const STATUS_KEY = ["public", "setup-status"] as const;

/**
 * `/setup`: the first run (`GET /setup/status`, `POST /setup/complete`, `/setup/test-smtp`,
 * `/setup/test-storage`). Four steps: the setup token (from the link `npm start` prints,
 * `/setup?token=…`, which fills it in and leaves the address bar; or typed), the administrator,
 * the first org (with an optional team and domain), and optionally the mailer and storage with
 * their connection tests. Nothing is stored before the last step, which does it all at once.
 */
export default function SetupPage() {
  const bb = useApi();
  const queryClient = useQueryClient();
  const finish = useFinishSignIn();
  const status = useApiQuery(STATUS_KEY, (b, signal) => b.api.GET("/setup/status", { signal }), { staleTime: Infinity });
  const policy = useSsoStatus().data?.password_policy;
  const [step, setStep] = useState(0);
  // the link `npm start` prints carries the token: taken once, then dropped from the address bar
  const linked = useParamOnce("token") ?? "";
  const [token, setToken] = useState(linked);
  const [admin, setAdmin] = useState({ display_name: "", email: "", password: "" });
  const [confirm, setConfirm] = useState("");
  const [org, setOrg] = useState({ org: "", team: "", domain: "" });
  const [withMailer, setWithMailer] = useState(false);
  const [mailer, setMailer] = useState<Mailer>({ host: "", port: 587, username: "", password: "", tls: true, from: "" });
  const [withStorage, setWithStorage] = useState(false);
  const [storage, setStorage] = useState<Storage>({
    provider: "s3",
    endpoint: "",
    bucket: "",
    region: "",
    access_key: "",
    secret_key: "",
    use_ssl: true,
  });
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    document.title = "First-run setup · BurnBox";
  }, []);

  const next = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setStep((s) => s + 1);
  };
  const back = () => setStep((s) => Math.max(0, s - 1));

  const complete = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const result = await unwrap(
        bb.api.POST("/setup/complete", {
          body: {
            setup_token: token.trim(),
            admin,
            org: { name: org.org },
            ...(org.team.trim() ? { team: { name: org.team.trim() } } : {}),
            ...(org.domain.trim() ? { domain: { domain_name: org.domain.trim() } } : {}),
            ...(withMailer ? { mailer: mailerBody(mailer) } : {}),
            ...(withStorage ? { storage: storageBody(storage) } : {}),
            use_cookie: true,
          },
        }),
      );
      queryClient.setQueryData(STATUS_KEY, { completed: true });
      finish(result, "/");
    } catch (err) {
      setError(err);
      // a wrong token: back to where it is entered; completed meanwhile: the gate leads away
      if (err instanceof BurnBoxError && err.status === 403) setStep(0);
      if (err instanceof BurnBoxError && err.status === 409) await queryClient.invalidateQueries({ queryKey: STATUS_KEY });
    } finally {
      setBusy(false);
    }
  };

  const stores = status.data?.datastores;
  return (
    <Stack>
      <Title order={1} size="h3">
        Set up BurnBox
      </Title>
      <Text size="sm" c="dimmed">
        This installation has no administrator yet. Until setup is finished, every page of the console leads here.
      </Text>
      <Stepper active={step} size="xs" allowNextStepsSelect={false} onStepClick={(s) => s < step && setStep(s)}>
        <Stepper.Step label="Token">
          <form onSubmit={next}>
            <Stack mt="md">
              <Text size="sm">
                <Code>npm start</Code> printed a link with the token in its summary (<Code>/setup?token=…</Code>): opening it fills the
                token in. In a deployment it is the <Code>setup.token</Code> setting (<Code>BB_SETUP_TOKEN</Code>); when that is unset, the
                tenancy service printed a one-time token in its log (the line <Code>first-run setup token</Code>, field{" "}
                <Code>setup_token</Code>).
              </Text>
              {linked && token === linked && (
                <Alert role="status" color="green" variant="light" icon={<IconCircleCheck />}>
                  The token from the link is filled in.
                </Alert>
              )}
              <ApiErrorAlert error={step === 0 ? error : null} />
              <TextInput
                label="Setup token"
                required
                autoComplete="off"
                spellCheck={false}
                value={token}
                onChange={(e) => setToken(e.currentTarget.value)}
              />
              {stores && (
                <div>
                  <Text size="sm" fw={500}>
                    This installation connects to
                  </Text>
                  <List size="sm" aria-label="Data stores">
                    <List.Item>PostgreSQL: {stores.postgres}</List.Item>
                    <List.Item>Redis: {stores.redis}</List.Item>
                    <List.Item>NATS: {stores.nats}</List.Item>
                    <List.Item>Message storage: {stores.storage}</List.Item>
                  </List>
                </div>
              )}
              <Group justify="flex-end">
                <Button type="submit">Next</Button>
              </Group>
            </Stack>
          </form>
        </Stepper.Step>

        <Stepper.Step label="Administrator">
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (confirm !== admin.password) return setError(new Error("The two passwords differ."));
              next(e);
            }}
          >
            <Stack mt="md">
              <Text size="sm">The first account is a system administrator and the owner of the first organization.</Text>
              <ApiErrorAlert error={step === 1 ? error : null} />
              <TextInput
                label="Name"
                autoComplete="name"
                required
                value={admin.display_name}
                onChange={(e) => setAdmin({ ...admin, display_name: e.currentTarget.value })}
              />
              <TextInput
                label="Email"
                type="email"
                autoComplete="username"
                required
                value={admin.email}
                onChange={(e) => setAdmin({ ...admin, email: e.currentTarget.value })}
              />
              <PasswordInput
                label="Password"
                autoComplete="new-password"
                required
                description={describePolicy(policy)}
                value={admin.password}
                onChange={(e) => setAdmin({ ...admin, password: e.currentTarget.value })}
              />
              <PasswordInput
                label="Repeat the password"
                autoComplete="new-password"
                required
                value={confirm}
                onChange={(e) => setConfirm(e.currentTarget.value)}
              />
              <StepButtons onBack={back} />
            </Stack>
          </form>
        </Stepper.Step>

        <Stepper.Step label="Organization">
          <form onSubmit={next}>
            <Stack mt="md">
              <ApiErrorAlert error={step === 2 ? error : null} />
              <TextInput
                label="Organization name"
                required
                value={org.org}
                onChange={(e) => setOrg({ ...org, org: e.currentTarget.value })}
              />
              <TextInput
                label="First team (optional)"
                description="Inboxes, API keys and webhooks belong to a team."
                value={org.team}
                onChange={(e) => setOrg({ ...org, team: e.currentTarget.value })}
              />
              <TextInput
                label="First domain (optional)"
                description="The domain inboxes get their addresses on, e.g. mail.example.com. You verify it with DNS records afterwards."
                value={org.domain}
                onChange={(e) => setOrg({ ...org, domain: e.currentTarget.value })}
              />
              <StepButtons onBack={back} />
            </Stack>
          </form>
        </Stepper.Step>

        <Stepper.Step label="Mail and storage">
          <form onSubmit={(e) => void complete(e)}>
            <Stack mt="md">
              <Text size="sm">
                Both are optional: without a mailer, the service uses its configured one for invites and password resets; without a storage,
                messages stay on the local disk. You can change both later in the admin console.
              </Text>
              <Switch label="Configure an outbound mailer" checked={withMailer} onChange={(e) => setWithMailer(e.currentTarget.checked)} />
              {withMailer && <MailerFields token={token} value={mailer} onChange={setMailer} />}
              <Switch label="Configure message storage" checked={withStorage} onChange={(e) => setWithStorage(e.currentTarget.checked)} />
              {withStorage && <StorageFields token={token} value={storage} onChange={setStorage} />}
              <ApiErrorAlert error={step === 3 ? error : null} />
              <StepButtons onBack={back} submit="Finish setup" busy={busy} />
            </Stack>
          </form>
        </Stepper.Step>
      </Stepper>
    </Stack>
  );
}

function StepButtons({ onBack, submit = "Next", busy }: { onBack: () => void; submit?: string; busy?: boolean }) {
  return (
    <Group justify="space-between">
      <Button variant="default" onClick={onBack}>
        Back
      </Button>
      <Button type="submit" loading={busy}>
        {submit}
      </Button>
    </Group>
  );
}

const mailerBody = (m: Mailer): Mailer => ({
  host: m.host.trim(),
  port: m.port,
  tls: m.tls,
  from: m.from.trim(),
  ...(m.username ? { username: m.username } : {}),
  ...(m.password ? { password: m.password } : {}),
});

function storageBody(s: Storage): Storage {
  if (s.provider === "local") return { provider: "local", ...(s.local_path ? { local_path: s.local_path } : {}) };
  const { local_path: _, ...rest } = s;
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== "")) as Storage;
}

/** A connection test's answer in words: connected (and how fast) or why not. */
export function ProbeResult({ result }: { result: Probe | undefined }) {
  if (!result) return null;
  return result.success ? (
    <Alert role="status" color="green" variant="light" icon={<IconCircleCheck />} title="Connection works">
      {result.message} (answered in {result.response_time_ms} ms)
    </Alert>
  ) : (
    <Alert role="status" color="red" variant="light" icon={<IconPlugConnectedX />} title="Could not connect">
      {result.message}. Check the host, the port and the credentials; the service refuses private and loopback addresses.
    </Alert>
  );
}

/** A "Test the connection" button and its result (or the API's refusal). */
function ProbeButton({ run, children }: { run: () => Promise<Probe>; children: ReactNode }) {
  const [result, setResult] = useState<Probe>();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const go = async () => {
    setBusy(true);
    setError(null);
    setResult(undefined);
    try {
      setResult(await run());
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="xs">
      <Group>
        <Button variant="light" onClick={() => void go()} loading={busy}>
          {children}
        </Button>
      </Group>
      <div aria-live="polite">
        <ProbeResult result={result} />
        <ApiErrorAlert error={error} />
      </div>
    </Stack>
  );
}

function MailerFields({ token, value, onChange }: { token: string; value: Mailer; onChange: (m: Mailer) => void }) {
  const bb = useApi();
  const set = (patch: Partial<Mailer>) => onChange({ ...value, ...patch });
  return (
    <Stack gap="sm" pl="md">
      <Group grow align="flex-start">
        <TextInput label="SMTP host" required value={value.host} onChange={(e) => set({ host: e.currentTarget.value })} />
        <NumberInput label="Port" required min={1} max={65535} value={value.port} onChange={(v) => set({ port: Number(v) || 0 })} />
      </Group>
      <TextInput label="From address" type="email" required value={value.from} onChange={(e) => set({ from: e.currentTarget.value })} />
      <Group grow align="flex-start">
        <TextInput
          label="Username (optional)"
          autoComplete="off"
          value={value.username ?? ""}
          onChange={(e) => set({ username: e.currentTarget.value })}
        />
        <PasswordInput
          label="Password (optional)"
          autoComplete="new-password"
          value={value.password ?? ""}
          onChange={(e) => set({ password: e.currentTarget.value })}
        />
      </Group>
      <Checkbox label="Use TLS" checked={value.tls} onChange={(e) => set({ tls: e.currentTarget.checked })} />
      <ProbeButton
        run={() =>
          unwrap(
            bb.api.POST("/setup/test-smtp", {
              body: {
                setup_token: token.trim(),
                host: value.host.trim(),
                port: value.port,
                tls: value.tls,
                ...(value.username ? { username: value.username } : {}),
                ...(value.password ? { password: value.password } : {}),
              },
            }),
          )
        }
      >
        Test the mailer
      </ProbeButton>
    </Stack>
  );
}

function StorageFields({ token, value, onChange }: { token: string; value: Storage; onChange: (s: Storage) => void }) {
  const bb = useApi();
  const set = (patch: Partial<Storage>) => onChange({ ...value, ...patch });
  return (
    <Stack gap="sm" pl="md">
      <SegmentedControl
        aria-label="Storage provider"
        data={[
          { value: "s3", label: "S3-compatible" },
          { value: "local", label: "Local disk" },
        ]}
        value={value.provider}
        onChange={(v) => set({ provider: v })}
      />
      {value.provider === "local" ? (
        <TextInput
          label="Directory (optional)"
          description="Where the service keeps messages on its disk."
          value={value.local_path ?? ""}
          onChange={(e) => set({ local_path: e.currentTarget.value })}
        />
      ) : (
        <>
          <TextInput
            label="Endpoint"
            placeholder="https://s3.example.com"
            required
            value={value.endpoint ?? ""}
            onChange={(e) => set({ endpoint: e.currentTarget.value })}
          />
          <Group grow align="flex-start">
            <TextInput label="Bucket" required value={value.bucket ?? ""} onChange={(e) => set({ bucket: e.currentTarget.value })} />
            <TextInput label="Region (optional)" value={value.region ?? ""} onChange={(e) => set({ region: e.currentTarget.value })} />
          </Group>
          <Group grow align="flex-start">
            <TextInput
              label="Access key"
              autoComplete="off"
              value={value.access_key ?? ""}
              onChange={(e) => set({ access_key: e.currentTarget.value })}
            />
            <PasswordInput
              label="Secret key"
              autoComplete="new-password"
              value={value.secret_key ?? ""}
              onChange={(e) => set({ secret_key: e.currentTarget.value })}
            />
          </Group>
          <Checkbox label="Use TLS (https)" checked={value.use_ssl ?? true} onChange={(e) => set({ use_ssl: e.currentTarget.checked })} />
        </>
      )}
      <ProbeButton
        run={() => {
          const { local_path: _, secret_key, ...probe } = storageBody(value);
          const body = { setup_token: token.trim(), ...probe, ...(secret_key ? { secret_key } : {}) };
          return unwrap(bb.api.POST("/setup/test-storage", { body }));
        }}
      >
        Test the storage
      </ProbeButton>
    </Stack>
  );
}
