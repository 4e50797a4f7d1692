import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";

/**
 * A search parameter a link hands a page once (`/teams?new=1` opens the create form,
 * `/setup?token=…` fills the token in): its value as the page first read it, dropped from the
 * address bar (the history entry replaced) right after, so a reload or a shared URL does not
 * repeat it. Null when the link did not carry it.
 */
export function useParamOnce(name: string): string | null {
  const [params, setParams] = useSearchParams();
  const [value] = useState(() => params.get(name));
  useEffect(() => {
    if (!params.has(name)) return;
    const rest = new URLSearchParams(params);
    rest.delete(name);
    setParams(rest, { replace: true });
  }, [params, setParams, name]);
  return value;
}
