/** Query keys of the roles area; every one starts with "roles". */
export const rolesKeys = {
  catalog: () => ["roles", "catalog"] as const,
};
