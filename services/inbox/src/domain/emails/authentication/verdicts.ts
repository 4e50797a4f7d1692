import { DMARC_POLICIES, MAIL_AUTH_RESULTS, type Authentication, type DmarcPolicy, type MailAuthResult } from "@burnbox/contracts";

/**
 * The parts of a mail-authentication library's answer (mailauth's `authenticate`) that the
 * verdicts are made of. Every field is optional: the library leaves out what it did not check.
 */
export interface CheckOutcome {
  spf?: { domain?: string; status?: { result?: string } } | false | null;
  dkim?: {
    results?: Array<{ signingDomain?: string; selector?: string; status?: { result?: string; comment?: string } }>;
  } | null;
  dmarc?:
    | {
        status?: { result?: string; header?: { from?: string; d?: string } };
        p?: string;
        sp?: string;
      }
    | false
    | null;
  arc?: { status?: { result?: string } } | false | null;
}

const RESULT_WORDS: ReadonlySet<string> = new Set(MAIL_AUTH_RESULTS);

/** A library's word as an RFC 8601 result; a word outside the list (none expected) is `permerror`, never a pass. */
export function resultOf(word: string | undefined): MailAuthResult {
  const w = (word ?? "").toLowerCase();
  if (!w) return "none";
  return RESULT_WORDS.has(w) ? (w as MailAuthResult) : "permerror";
}

const policyOf = (tag: string | undefined): DmarcPolicy => {
  const p = (tag ?? "").toLowerCase();
  return (DMARC_POLICIES as readonly string[]).includes(p) ? (p as DmarcPolicy) : "none";
};

const domainOf = (value: string | undefined): string | null => {
  const d = (value ?? "").trim().toLowerCase().replace(/\.$/, "");
  return d.length > 0 ? d : null;
};

/**
 * The stored verdicts (extensions section 3) of a check's outcome:
 * - `spf`: its result for the domain it checked (the envelope sender's, or the HELO name's).
 * - `dkim`: one entry per signature, in header order; the library's entry for an unsigned
 *   message (no signing domain) is no signature, so an unsigned message has `[]`.
 * - `dmarc`: the From domain; the policy that domain publishes (`p=`, or `sp=` when the record was
 *   found at its organizational domain, i.e. the From domain is a subdomain); `none` when no record.
 *   No DMARC outcome at all (no single From address) is `none` for `fromDomain` (given, or read
 *   when needed), which is null then.
 * - `arc`: the chain's result, `none` when there is none.
 */
export function verdictsOf(outcome: CheckOutcome, fromDomain: string | null | (() => string | null)): Authentication {
  const spf = outcome.spf || null;
  const dmarc = outcome.dmarc || null;
  const arc = outcome.arc || null;
  const header = dmarc?.status?.header;
  // the message's own From domain is read only when DMARC did not say it
  const from = domainOf(header?.from) ?? (typeof fromDomain === "function" ? fromDomain() : fromDomain);
  const recordDomain = domainOf(header?.d);
  const hasRecord = recordDomain !== null;
  return {
    spf: { result: spf ? resultOf(spf.status?.result) : "none", domain: domainOf(spf?.domain) },
    dkim: (outcome.dkim?.results ?? [])
      .filter((r) => domainOf(r.signingDomain) !== null)
      .map((r) => ({ result: resultOf(r.status?.result), domain: domainOf(r.signingDomain)!, selector: r.selector ?? "" })),
    dmarc: {
      result: dmarc ? resultOf(dmarc.status?.result) : "none",
      policy: !hasRecord ? "none" : recordDomain === from ? policyOf(dmarc?.p) : policyOf(dmarc?.sp ?? dmarc?.p),
      domain: from,
    },
    arc: { result: arc ? resultOf(arc.status?.result) : "none" },
  };
}

/** One DKIM signature as its header names it (`d=`, `s=`). */
export interface SignatureRef {
  domain: string;
  selector: string;
}

/**
 * What is stored when the checks did not finish within the DNS budget (or failed outright): every
 * check `temperror`, one DKIM entry per signature the header block names, the From domain known.
 */
export function temperrorVerdicts(input: {
  signatures: SignatureRef[];
  fromDomain: string | null;
  spfDomain: string | null;
}): Authentication {
  return {
    spf: { result: "temperror", domain: input.spfDomain },
    dkim: input.signatures.map((s) => ({ result: "temperror", domain: s.domain, selector: s.selector })),
    dmarc: { result: "temperror", policy: "none", domain: input.fromDomain },
    arc: { result: "temperror" },
  };
}

/** The header block of a raw message (up to the first empty line), unfolded, as `[name, value]` pairs. */
function headerFields(raw: Buffer): Array<[string, string]> {
  const text = raw.toString("latin1");
  const end = text.search(/\r?\n\r?\n/);
  const block = end >= 0 ? text.slice(0, end) : text;
  const fields: Array<[string, string]> = [];
  for (const line of block.split(/\r?\n/)) {
    if (/^[ \t]/.test(line) && fields.length > 0) fields[fields.length - 1]![1] += line;
    else {
      const colon = line.indexOf(":");
      if (colon > 0) fields.push([line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1)]);
    }
  }
  return fields;
}

const tagOf = (value: string, tag: string): string | null => {
  const m = new RegExp(`(?:^|;)\\s*${tag}\\s*=\\s*([^;]*)`, "i").exec(value);
  return m ? m[1]!.replace(/\s+/g, "").toLowerCase() : null;
};

/** The DKIM signatures a message's header block names (`d=` and `s=` of each DKIM-Signature), in order. */
export function signaturesIn(raw: Buffer): SignatureRef[] {
  return headerFields(raw)
    .filter(([name]) => name === "dkim-signature")
    .map(([, value]) => ({ domain: tagOf(value, "d") ?? "", selector: tagOf(value, "s") ?? "" }))
    .filter((s) => s.domain.length > 0);
}

/** The domain of the message's single From address; null when there is none or more than one. */
export function fromDomainIn(raw: Buffer): string | null {
  const froms = headerFields(raw).filter(([name]) => name === "from");
  if (froms.length !== 1) return null;
  const addresses = froms[0]![1].match(/[^\s<>"(),;:]+@([^\s<>"(),;:]+)/g) ?? [];
  const [address] = addresses;
  if (addresses.length !== 1 || address === undefined) return null;
  return domainOf(address.slice(address.lastIndexOf("@") + 1));
}

/** The domain SPF checks: the envelope sender's, or the HELO name's for the null sender. */
export function spfDomainOf(sender: string, helo: string | null): string | null {
  const at = sender.lastIndexOf("@");
  if (at >= 0) return domainOf(sender.slice(at + 1));
  return helo && !/^\[.*\]$/.test(helo) && !/^[\d.:]+$/.test(helo) ? domainOf(helo) : null;
}
