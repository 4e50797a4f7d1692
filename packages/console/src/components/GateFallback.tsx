import { Center, Loader } from "@mantine/core";
import type { ReactNode } from "react";
import { PageHeader } from "./PageHeader";

/**
 * What a gate (OrgGate, TeamGate) shows instead of its page: the page's heading (so the page
 * still has its `<h1>`) over a loader while the header's choice loads, else `empty` (why there is
 * nothing to show).
 */
export function GateFallback({ title, isLoading, empty }: { title: string; isLoading: boolean; empty: ReactNode }) {
  return (
    <>
      <PageHeader title={title} />
      {isLoading ? (
        <Center py="xl">
          <Loader aria-label="Loading" />
        </Center>
      ) : (
        empty
      )}
    </>
  );
}
