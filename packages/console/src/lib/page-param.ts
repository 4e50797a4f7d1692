// Kept apart from Pagination.tsx (no React, no component library): a route's loader reads it too,
// and what a loader imports is in the console's first chunks.

/** The page number in `params` (`page` unless named otherwise): 1 when absent, unreadable or below 1. */
export const pageFrom = (params: URLSearchParams, name = "page"): number => Math.max(1, Number.parseInt(params.get(name) ?? "1", 10) || 1);
