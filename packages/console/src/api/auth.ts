// Sign-in state shared by the areas that sign a person in or show the sign-in rules (auth, setup, account).
import { useCallback } from "react";
import { useNavigate, useSearchParams } from "react-router";
import type { AuthResult } from "@burnbox/sdk";
import { safeNext } from "../lib/next";
import { accountKeys } from "./keys";
import { useApiQuery } from "./query";
import { useSessionStore } from "./session";

/** SSO providers and the password policy (`GET /auth/sso-status`, public). */
export function useSsoStatus() {
  return useApiQuery(accountKeys.ssoStatus(), (bb, signal) => bb.api.GET("/auth/sso-status", { signal }), { staleTime: 60_000 });
}

/** After any sign-in: remember the session, then go where the user was headed (`?next=`). */
export function useFinishSignIn() {
  const store = useSessionStore();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  return useCallback(
    (result: AuthResult, to?: string) => {
      store.signedIn(result);
      void navigate(to ?? safeNext(params.get("next")), { replace: true });
    },
    [store, navigate, params],
  );
}
