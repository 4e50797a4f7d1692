import { useMutation, useQuery, useQueryClient, type QueryKey, type UseMutationOptions, type UseQueryOptions } from "@tanstack/react-query";
import { errorFromResponse, type BurnBox, type BurnBoxError } from "@burnbox/sdk";
import { useSessionStore } from "./session";

/** What every `bb.api.GET/POST/…` call answers (openapi-fetch). */
export interface ApiAnswer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The body of a 2xx answer; anything else throws the SDK's BurnBoxError (status, code, the API's message). */
export async function unwrap<T>(answer: Promise<ApiAnswer<T>> | ApiAnswer<T>): Promise<T> {
  const r = await answer;
  if (!r.response.ok) throw errorFromResponse(r.response.status, r.error, r.response.headers);
  return r.data as T;
}

/** The SDK client of this console: every call carries the session's access token. */
export function useApi(): BurnBox {
  return useSessionStore().client;
}

/**
 * A query on the API: `useApiQuery(keys.inbox(id), (bb, signal) => bb.api.GET("/inboxes/{id}", { params: { path: { id } }, signal }))`.
 * Errors are BurnBoxErrors (show them with <ApiErrorAlert error={q.error} />).
 */
export function useApiQuery<T>(
  key: QueryKey,
  call: (bb: BurnBox, signal: AbortSignal) => Promise<ApiAnswer<T>>,
  options: Omit<UseQueryOptions<T, BurnBoxError>, "queryKey" | "queryFn"> = {},
) {
  const bb = useApi();
  return useQuery<T, BurnBoxError>({ queryKey: key, queryFn: ({ signal }) => unwrap(call(bb, signal)), ...options });
}

/**
 * A change through the API. `invalidates` lists the query keys (prefixes) to refetch on success:
 * `useApiMutation((bb, id: string) => bb.api.DELETE("/inboxes/{id}", { params: { path: { id } } }), { invalidates: [keys.inboxes()] })`.
 */
export function useApiMutation<TVars, T>(
  call: (bb: BurnBox, vars: TVars) => Promise<ApiAnswer<T>>,
  options: Omit<UseMutationOptions<T, BurnBoxError, TVars>, "mutationFn"> & { invalidates?: QueryKey[] } = {},
) {
  const bb = useApi();
  const queryClient = useQueryClient();
  const { invalidates, onSuccess, ...rest } = options;
  return useMutation<T, BurnBoxError, TVars>({
    mutationFn: (vars) => unwrap(call(bb, vars)),
    onSuccess: async (...args) => {
      await Promise.all((invalidates ?? []).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      await onSuccess?.(...args);
    },
    ...rest,
  });
}

export type ApiQueryOptions<T> = Omit<UseQueryOptions<T, BurnBoxError>, "queryKey" | "queryFn">;
export type ApiMutationOptions<TVars, T> = Omit<UseMutationOptions<T, BurnBoxError, TVars>, "mutationFn"> & { invalidates?: QueryKey[] };

/**
 * Named hooks of an area's `api.ts` (pages call these, never `bb.api`):
 * `export const useSessions = apiQueryWith((a: { page: number }) => keys.sessions(a.page), (bb, signal, a) => bb.api.GET(…))`,
 * called as `useSessions({ page }, { enabled })`; `apiQuery(key, call)` when the call needs nothing from the page.
 */
export function apiQueryWith<A, T>(key: (args: A) => QueryKey, call: (bb: BurnBox, signal: AbortSignal, args: A) => Promise<ApiAnswer<T>>) {
  return (args: A, options?: ApiQueryOptions<T>) => useApiQuery(key(args), (bb, signal) => call(bb, signal, args), options);
}

export function apiQuery<T>(key: QueryKey, call: (bb: BurnBox, signal: AbortSignal) => Promise<ApiAnswer<T>>) {
  return (options?: ApiQueryOptions<T>) => useApiQuery(key, call, options);
}

/**
 * `export const useRevokeSession = apiMutation((bb, id: string) => bb.api.DELETE(…))`, called as
 * `useRevokeSession({ invalidates, onSuccess })`; `apiMutationWith((bb, vars, a: { orgId: string }) => …)`
 * when the call also needs what the page knows (the org, the team): `useX({ orgId }, options)`.
 */
export function apiMutationWith<A, TVars, T>(call: (bb: BurnBox, vars: TVars, args: A) => Promise<ApiAnswer<T>>) {
  return (args: A, options?: ApiMutationOptions<TVars, T>) => useApiMutation((bb, vars: TVars) => call(bb, vars, args), options);
}

export function apiMutation<TVars, T>(call: (bb: BurnBox, vars: TVars) => Promise<ApiAnswer<T>>) {
  return (options?: ApiMutationOptions<TVars, T>) => useApiMutation(call, options);
}
