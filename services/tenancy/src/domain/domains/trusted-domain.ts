/** A domain named in `domains.trusted`, or a subdomain of one, counts as verified without DNS. */
export function isTrusted(domainName: string, trusted: readonly string[]): boolean {
  const name = domainName.toLowerCase().replace(/\.$/, "");
  return trusted.some((t) => {
    const d = t.toLowerCase().replace(/\.$/, "");
    return d.length > 0 && (name === d || name.endsWith(`.${d}`));
  });
}
