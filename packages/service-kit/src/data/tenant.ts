/**
 * The tenant a repository method reads or writes. Every method that touches tenant data takes one,
 * so a query that forgets its org or team does not type-check. Ids found in a path are checked
 * (team against org) by authorization before they become a scope.
 */
export interface OrgScope {
  orgId: string;
}

export interface TeamScope extends OrgScope {
  teamId: string;
}
