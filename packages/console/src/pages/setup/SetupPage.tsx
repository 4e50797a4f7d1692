import { Stack, Stepper, Text, Title } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { BurnBoxError } from "@burnbox/sdk";
import { useParamOnce } from "../../components";
import { useFinishSignIn } from "../../api/auth";
import { AdministratorStep } from "./AdministratorStep";
import { STATUS_KEY, useSetupCalls, useSetupStatus } from "./api";
import { setupBody, stepPasses, useSetupForm, type SetupValues } from "./setup-form";
import { MailAndStorageStep } from "./MailAndStorageStep";
import { OrganizationStep } from "./OrganizationStep";
import { TokenStep } from "./TokenStep";

/**
 * `/setup`: the first run (`GET /setup/status`, `POST /setup/complete`, `/setup/test-smtp`,
 * `/setup/test-storage`). Four steps: the setup token (from the link `npm start` prints,
 * `/setup?token=…`, which fills it in and leaves the address bar; or typed), the administrator,
 * the first org (with an optional team and domain), and optionally the mailer and storage with
 * their connection tests. Nothing is stored before the last step, which does it all at once.
 */
export default function SetupPage() {
  const setup = useSetupCalls();
  const queryClient = useQueryClient();
  const finish = useFinishSignIn();
  const status = useSetupStatus({ staleTime: Infinity });
  const [step, setStep] = useState(0);
  // the link `npm start` prints carries the token: taken once, then dropped from the address bar
  const linked = useParamOnce("token") ?? "";
  const form = useSetupForm(linked);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    document.title = "First-run setup · BurnBox";
  }, []);

  const next = (e: FormEvent) => {
    e.preventDefault();
    if (!stepPasses(form, step)) return;
    setError(null);
    setStep((s) => s + 1);
  };
  const back = () => setStep((s) => Math.max(0, s - 1));

  const complete = async (values: SetupValues) => {
    setBusy(true);
    setError(null);
    try {
      const result = await setup.complete(setupBody(values));
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
          <TokenStep linked={linked} form={form} stores={stores} error={step === 0 ? error : null} next={next} />
        </Stepper.Step>

        <Stepper.Step label="Administrator">
          <AdministratorStep form={form} error={step === 1 ? error : null} next={next} back={back} />
        </Stepper.Step>

        <Stepper.Step label="Organization">
          <OrganizationStep form={form} error={step === 2 ? error : null} next={next} back={back} />
        </Stepper.Step>

        <Stepper.Step label="Mail and storage">
          <MailAndStorageStep
            form={form}
            error={step === 3 ? error : null}
            busy={busy}
            complete={form.onSubmit((v) => void complete(v))}
            back={back}
          />
        </Stepper.Step>
      </Stepper>
    </Stack>
  );
}
