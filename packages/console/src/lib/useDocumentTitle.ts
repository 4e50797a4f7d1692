import { useEffect } from "react";

/** The browser tab's title for a page without the shared PageHeader. */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    if (title) document.title = `${title} · BurnBox`;
  }, [title]);
}
