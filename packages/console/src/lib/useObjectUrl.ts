import { useEffect, useState } from "react";

/**
 * An object URL for a Blob the page fetched with the session's token (a preview, a snapshot's
 * picture), so an `<img>` can show it; revoked when the Blob changes or the component goes.
 */
export function useObjectUrl(blob: Blob | undefined): string | undefined {
  const [url, setUrl] = useState<string | undefined>();
  useEffect(() => {
    if (!blob) {
      setUrl(undefined);
      return;
    }
    const made = URL.createObjectURL(blob);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [blob]);
  return url;
}
