import { useState } from "react";

/**
 * A sign-in form's call to the API: `busy` while it runs, the API's error after it failed (cleared
 * when it runs again). `call` throws what the form should show; it may handle some errors itself.
 */
export function useAuthSubmit<A extends unknown[]>(call: (...args: A) => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (...args: A) => {
    setBusy(true);
    setError(null);
    try {
      await call(...args);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, error, setError };
}
