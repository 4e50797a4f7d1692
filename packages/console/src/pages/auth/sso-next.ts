// Where to go after an SSO round trip: the provider's redirect drops the login page's ?next=, so it waits in session storage.
const KEY = "burnbox.sso-next";

/** Keeps `next` (when it is somewhere other than the start page) for the login page the provider sends back to. */
export function rememberSsoNext(next: string | undefined): void {
  if (next && next !== "/") sessionStorage.setItem(KEY, next);
}

/** The page an SSO login was started from (kept across the provider's redirect), read once. */
export function takeSsoNext(): string | null {
  const v = sessionStorage.getItem(KEY);
  sessionStorage.removeItem(KEY);
  return v;
}
