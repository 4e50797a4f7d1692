import { LinkifyIt } from "linkify-it";
import type { ExtractedLink, LinkKind } from "@burnbox/contracts";
import type { HtmlAnchor } from "./html-text";

export const MAX_LINKS = 100;
/** At most this much of a body is searched for URLs (and codes): intake time stays bounded. */
export const MAX_SCANNED_CHARS = 100_000;

/** Only explicit http(s) URLs count in text: no fuzzy hosts (`example.com`), no e-mail addresses. */
const linkify = new LinkifyIt({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });

/**
 * The words of each kind, tried in this order on the URL's path, then on its query, then on the
 * anchor text (extensions section 2: "in that order of precedence"), so a word of the path wins
 * over any of the query: `/verify?next=/password/reset` is a verify link. Within one of them the
 * more specific intents come first: `/password/reset/abc-token` is a reset, `magic` outranks
 * `verify` (`/verify-magic`), while the generic login words and `token` come last.
 * A separator is optional inside the two-word forms (`sign-in`, `sign_in`, `signin`, `Sign in`),
 * and stems catch the usual inflections (`confirmation`, `activation`, `verification`).
 */
const KIND_RULES: ReadonlyArray<readonly [LinkKind, RegExp]> = [
  ["unsubscribe", /unsubscri|opt[-_ ]?out/i],
  ["reset", /reset|password/i],
  ["magic_link", /magic/i],
  ["verify", /verif|confirm|activat/i],
  ["magic_link", /log[-_ ]?in|sign[-_ ]?in|token/i],
];

function kindOfWords(words: string): LinkKind | null {
  for (const [kind, re] of KIND_RULES) if (re.test(words)) return kind;
  return null;
}

/** The kind of a link: from the URL's path, else its query, else its anchor text, else `other`. */
export function linkKind(url: string, text: string): LinkKind {
  let path = "";
  let query = "";
  try {
    const u = new URL(url);
    path = safeDecode(u.pathname);
    query = safeDecode(u.search);
  } catch {
    // not a URL: only the text can tell
  }
  return kindOfWords(path) ?? kindOfWords(query) ?? kindOfWords(text) ?? "other";
}

const safeDecode = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** The href as a link, or null when it is not an absolute http(s) URL. Tabs and line breaks inside are dropped, as a browser does. */
export function httpUrl(raw: string): string | null {
  const url = raw.replace(/[\t\r\n]/g, "").trim();
  if (!/^https?:\/\//i.test(url)) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}

/** Two spellings of one URL (host case, default port, `%7E` against `~`…) count as one link. */
const sameUrlKey = (url: string): string => new URL(url).href;

/** The http(s) URLs of a `List-Unsubscribe` header (`<mailto:…>, <https://…>`), in order. */
export function listUnsubscribeUrls(value: string | undefined): string[] {
  if (!value) return [];
  const urls: string[] = [];
  for (const m of value.matchAll(/<([^>]*)>/g)) {
    const url = httpUrl(m[1] ?? "");
    if (url) urls.push(url);
  }
  return urls;
}

/** The explicit http(s) URLs of a text, in order. */
export function textUrls(text: string): string[] {
  const found = linkify.match(text) ?? [];
  return found.filter((m) => m.schema.toLowerCase() === "http:" || m.schema.toLowerCase() === "https:").map((m) => m.url);
}

export interface LinkSources {
  anchors: readonly HtmlAnchor[];
  /** The body text: URLs here come after the anchors' (the text part, else the HTML's visible text). */
  text: string;
  listUnsubscribe: string | undefined;
}

/**
 * The links of a mail (extensions section 2): the anchors' hrefs in document order, then the
 * text's URLs not already listed, then the `List-Unsubscribe` URLs not already listed; each
 * distinct URL once, at most 100.
 */
export function extractLinks(src: LinkSources): ExtractedLink[] {
  const unsubscribe = listUnsubscribeUrls(src.listUnsubscribe);
  const unsubscribeKeys = new Set(unsubscribe.map(sameUrlKey));
  const seen = new Set<string>();
  const links: ExtractedLink[] = [];
  const add = (url: string, text: string) => {
    if (links.length >= MAX_LINKS) return;
    const key = sameUrlKey(url);
    if (seen.has(key)) return;
    seen.add(key);
    links.push({ url, text, kind: unsubscribeKeys.has(key) ? "unsubscribe" : linkKind(url, text) });
  };
  for (const a of src.anchors) {
    const url = httpUrl(a.href);
    if (url) add(url, a.text);
  }
  if (links.length < MAX_LINKS) for (const url of textUrls(src.text.slice(0, MAX_SCANNED_CHARS))) add(url, "");
  for (const url of unsubscribe) add(url, "");
  return links;
}
