import { LinkifyIt } from "linkify-it";
import type { ExtractedCode } from "@burnbox/contracts";
import { dropInvisible } from "./html-text";
import { MAX_SCANNED_CHARS } from "./links";

export const MAX_CODES = 5;
/** Characters between the nearest ends of a keyword and a code. */
export const KEYWORD_WINDOW = 40;
export const CONTEXT_CHARS = 60;

// ---- texts ----------------------------------------------------------------------------------

/**
 * A text with each run of white space folded to one character, so that distances count it as
 * one: a space when the run was a single space or no-break space, a line break otherwise. Only
 * a single space may split a code (`123 456`); cells, lines and paragraphs never run together.
 */
function fold(raw: string): string {
  return dropInvisible(raw)
    .trim()
    .replace(/\s+/g, (run) => (run === " " || run === "\u00a0" ? " " : "\n"));
}

const isSpace = (c: string | undefined) => c === " " || c === "\n";

// ---- keywords ---------------------------------------------------------------------------------

/**
 * The spec's keywords as whole words in any case (plus their plurals, and "one time" beside
 * "one-time"), then a few localized ones (the bonus). Scripts written without spaces between
 * words (Chinese, Japanese, Korean) cannot have whole words, so their keywords match anywhere.
 */
const KEYWORDS = new RegExp(
  "(?<![\\p{L}\\p{N}])(?:" +
    [
      "security\\scodes?",
      "login\\scodes?",
      "codes?",
      "otps?",
      "pins?",
      "passcodes?",
      "one[-\\s]time",
      "verification",
      "verify",
      "tokens?",
      // localized
      "c[oó]digos?",
      "codice",
      "kod",
      "kód",
      "koodi",
      "kode",
      "код[а-я]*",
      // compounds: Bestätigungscode, verificatiecode, engangskode, verifieringskod (not "postcode")
      "(?:bestätigungs|sicherheits|verifizierungs|einmal|anmelde|zugangs|freischalt|aktivierungs|verificatie|beveiligings|engangs|bekræftelses|verifierings|säkerhets|vahvistus)(?:code|kode|kod|koodi)",
      "v[ée]rification",
      "verificaci[oó]n",
      "verifica[cç][aã]o",
      "verifica",
      "verifizierung",
      "bestätigung",
      "подтверждени[яе]",
    ].join("|") +
    ")(?![\\p{L}\\p{N}])" +
    "|验证码|驗證碼|校验码|确认码|認証コード|確認コード|ワンタイムパスワード|인증번호|인증\\s?코드",
  "giu",
);

interface Span {
  start: number;
  end: number;
}

function keywordSpans(text: string): Span[] {
  const spans: Span[] = [];
  for (const m of text.matchAll(KEYWORDS)) spans.push({ start: m.index, end: m.index + m[0].length });
  return spans;
}

/** Characters between the nearest ends of two spans (0 when they touch or overlap). */
function gap(a: Span, b: Span): number {
  if (a.end <= b.start) return b.start - a.end;
  if (b.end <= a.start) return a.start - b.end;
  return 0;
}

// ---- runs -----------------------------------------------------------------------------------

/** Letters and digits of scripts written without spaces: a code may touch them ("验证码是123456"). */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
const WORD = /[\p{L}\p{N}]/u;
const isWord = (c: string | undefined) => c !== undefined && WORD.test(c);
const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";
/** A letter or digit that would make a run part of a longer word (`abc123456`, `Ä12345`). */
const gluesTo = (c: string | undefined) => isWord(c) && !UNSPACED.test(c as string);

/**
 * Whether `c` between `left` and `right` joins them into one token: `-_./@` between letters or
 * digits (`ORD-12345`, `v1.23456`, `2026/11/27`, `a1@b.io`), `,` and `:` between digits
 * (`1,234,567`, `10:30`). A colon after a word is a label (`OTP:123456`), not a join.
 */
function joins(c: string | undefined, left: string | undefined, right: string | undefined): boolean {
  if (c === undefined) return false;
  if ("-_./@".includes(c)) return isWord(left) && isWord(right);
  if (c === "," || c === ":") return isDigit(left) && isDigit(right);
  return false;
}

/** A maximal run of capital letters and digits, and how it touches its neighbours. */
interface Atom extends Span {
  digits: boolean;
}

/** A candidate code in a text: its value and the span it covers (a split code covers its separator). */
interface Candidate extends Span {
  value: string;
  digitsOnly: boolean;
}

/**
 * The runs of a text that have the shape of a code: 4–10 digits (one dash or single space may
 * split them into two equal groups of 2–5 digits), or 5–10 capital letters and digits with at
 * least one digit. A run must stand alone: glued to a letter (`abc123456`) or joined to another
 * token (`ORD-12345`, `12345.67`, `2026-11-27`, `555-123-4567`) it is part of something else;
 * three or more digit groups in a row separated by single spaces are a phone or card number.
 * The exclusions (`excluded`, `linkChecker`) are applied after.
 */
function candidates(text: string): Candidate[] {
  const atoms: Atom[] = [];
  for (const m of text.matchAll(/[A-Z0-9]+/g)) {
    atoms.push({ start: m.index, end: m.index + m[0].length, digits: /^[0-9]+$/.test(m[0]) });
  }
  // tokens: atoms joined by joiners; a token touching a lowercase word or joined to one is dropped
  const tokens: Atom[][] = [];
  for (let i = 0; i < atoms.length;) {
    const group = [atoms[i] as Atom];
    let j = i;
    while (j + 1 < atoms.length) {
      const a = atoms[j] as Atom;
      const b = atoms[j + 1] as Atom;
      if (b.start !== a.end + 1 || !joins(text[a.end], text[a.end - 1], text[b.start])) break;
      group.push(b);
      j++;
    }
    i = j + 1;
    const first = group[0] as Atom;
    const last = group[group.length - 1] as Atom;
    const glued = gluesTo(text[first.start - 1]) || gluesTo(text[last.end]);
    const joinedToWord =
      joins(text[first.start - 1], text[first.start - 2], text[first.start]) ||
      joins(text[last.end], text[last.end - 1], text[last.end + 1]);
    tokens.push(glued || joinedToWord ? [] : group);
  }

  const out: Candidate[] = [];
  // digit-only single-atom tokens separated by one single space form space groups
  let spaceGroup: Atom[] = [];
  const flushSpaceGroup = () => {
    const g = spaceGroup;
    spaceGroup = [];
    if (g.length === 1) pushDigits(g[0] as Atom);
    else if (g.length === 2) {
      const [a, b] = g as [Atom, Atom];
      if (isSplit(a, b)) out.push(digitCandidate(text, a, b));
      else {
        pushDigits(a);
        pushDigits(b);
      }
    }
    // three or more groups: a phone, card or long number
  };
  const pushDigits = (a: Atom) => {
    const len = a.end - a.start;
    if (len >= 4 && len <= 10) out.push(digitCandidate(text, a));
  };

  for (const group of tokens) {
    const only = group.length === 1 ? (group[0] as Atom) : null;
    if (only?.digits) {
      const prev = spaceGroup[spaceGroup.length - 1];
      if (prev && !(only.start === prev.end + 1 && text[prev.end] === " ")) flushSpaceGroup();
      spaceGroup.push(only);
      continue;
    }
    flushSpaceGroup();
    if (only) {
      const len = only.end - only.start;
      if (len >= 5 && len <= 10 && /[0-9]/.test(text.slice(only.start, only.end)))
        out.push({ start: only.start, end: only.end, value: text.slice(only.start, only.end), digitsOnly: false });
    } else if (group.length === 2) {
      // one dash between two digit groups: `123-456`
      const [a, b] = group as [Atom, Atom];
      if (a.digits && b.digits && text[a.end] === "-" && isSplit(a, b)) out.push(digitCandidate(text, a, b));
    }
  }
  flushSpaceGroup();
  return out;
}

/**
 * Two digit groups that read as one split code: two equal groups of 2–5 digits (`123 456`,
 * `1234-5678`). Unequal groups are something else: `123-4567` is a phone number.
 */
function isSplit(a: Atom, b: Atom): boolean {
  const la = a.end - a.start;
  return la >= 2 && la <= 5 && b.end - b.start === la;
}

function digitCandidate(text: string, a: Atom, b?: Atom): Candidate {
  const end = (b ?? a).end;
  return { start: a.start, end, value: text.slice(a.start, a.end) + (b ? text.slice(b.start, b.end) : ""), digitsOnly: true };
}

// ---- exclusions -------------------------------------------------------------------------------

/** Found with fuzzy hosts and e-mail addresses, so `example.com/c/123456` and `482913@mail.io` count too. */
const linkFinder = new LinkifyIt({ fuzzyLink: true, fuzzyEmail: true, fuzzyIP: true });

const CURRENCY_SIGN = /\p{Sc}/u;
const CURRENCY_CODE = /^(?:USD|EUR|GBP|CHF|JPY|CNY|INR|CAD|AUD|NZD|SEK|NOK|DKK|PLN|CZK|BRL|MXN|RUB|TRY|ZAR)$/;

const MONTHS = [
  "january|february|march|april|may|june|july|august|september|october|november|december",
  "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec",
  "januar|februar|märz|mai|juni|juli|oktober|dezember",
  "janvier|février|fevrier|mars|avril|juin|juillet|août|aout|septembre|octobre|novembre|décembre|decembre",
  "enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre",
  "janeiro|fevereiro|março|maio|junho|julho|setembro|outubro|novembro|dezembro",
  "gennaio|febbraio|aprile|maggio|giugno|luglio|settembre|ottobre|dicembre",
].join("|");
/** `November 2026`, `Nov 27, 2026`, `27. März 2026`, `27 de noviembre de 2026` (text before a year). */
const MONTH_BEFORE = new RegExp(`(?<![\\p{L}])(?:${MONTHS})\\.?(?:\\s\\d{1,2}(?:st|nd|rd|th|\\.)?)?,?(?:\\s(?:de|of))?\\s?$`, "iu");
/** `2026 November`, `2026, Nov` (text after a year). */
const MONTH_AFTER = new RegExp(`^,?\\s?(?:${MONTHS})(?![\\p{L}])`, "iu");

/**
 * Not codes: a reference (`#12345`, `+4930…`, `№ 1234`), a copyright year (`© 2026`), an amount
 * with a currency sign or code before or after it, a year next to a month name.
 */
function excluded(text: string, c: Candidate): boolean {
  const before = text[c.start - 1];
  const markBefore = isSpace(before) ? text[c.start - 2] : before;
  if (before === "+" || markBefore === "#" || markBefore === "№") return true;
  // a copyright year: `© 2026`, `(c) 2026`
  if (/(?:©|\([cC]\))\s?$/.test(text.slice(Math.max(0, c.start - 4), c.start))) return true;
  // an amount: a currency sign or code right before or after, a space between allowed
  const signBefore = isSpace(before) ? text[c.start - 2] : before;
  const signAfter = isSpace(text[c.end]) ? text[c.end + 1] : text[c.end];
  if ((signBefore && CURRENCY_SIGN.test(signBefore)) || (signAfter && CURRENCY_SIGN.test(signAfter))) return true;
  const wordBefore = /(?:^|[^A-Z])([A-Z]{3})\s$/.exec(text.slice(Math.max(0, c.start - 5), c.start))?.[1];
  const wordAfter = /^\s([A-Z]{3})(?![A-Za-z])/.exec(text.slice(c.end, c.end + 5))?.[1];
  if ((wordBefore && CURRENCY_CODE.test(wordBefore)) || (wordAfter && CURRENCY_CODE.test(wordAfter))) return true;
  // a year next to a month name
  if (c.digitsOnly && c.end - c.start === 4 && /^(?:1[89]|2\d)\d\d$/.test(c.value)) {
    if (MONTH_BEFORE.test(text.slice(Math.max(0, c.start - 24), c.start)) || MONTH_AFTER.test(text.slice(c.end, c.end + 14))) return true;
  }
  return false;
}

/**
 * Four digits alone in parentheses after a word (`Verify your Acme email (2999)`, `Annual report
 * (2026)`, `Comments (1024)`) tag the text with a count or a year; a sender writes a code with a
 * keyword or a colon, not as an aside. A keyword right before the parentheses (`PIN (4821)`) keeps
 * it a code. Longer runs in parentheses (`(482913)`) stay codes.
 */
function parenthesisedTag(text: string, c: Candidate, keywords: readonly Span[]): boolean {
  if (!c.digitsOnly || c.end - c.start !== 4 || text[c.start - 1] !== "(" || text[c.end] !== ")") return false;
  const wordEnd = isSpace(text[c.start - 2]) ? c.start - 2 : c.start - 1;
  if (!isWord(text[wordEnd - 1])) return false;
  return !keywords.some((k) => k.end === wordEnd);
}

/**
 * Whether a span lies (partly) inside a URL or an e-mail address. A URL holds no white space, so
 * only the chunk of non-space text around each end of the span is searched, each chunk once.
 */
function linkChecker(text: string): (c: Span) => boolean {
  let chunkStart: Int32Array | null = null; // for each position, where its chunk of non-space text starts
  const chunks = new Map<number, Span[]>();
  const linksOfChunkAt = (at: number): Span[] => {
    if (!chunkStart) {
      chunkStart = new Int32Array(text.length);
      for (let i = 0, start = 0; i < text.length; i++) {
        if (isSpace(text[i])) start = i + 1;
        chunkStart[i] = start;
      }
    }
    const from = chunkStart[at] ?? at;
    let links = chunks.get(from);
    if (!links) {
      let to = at;
      while (to < text.length && !isSpace(text[to])) to++;
      links = (linkFinder.match(text.slice(from, to)) ?? []).map((m) => ({ start: from + m.index, end: from + m.lastIndex }));
      chunks.set(from, links);
    }
    return links;
  };
  return (c) => [c.start, c.end - 1].some((at) => linksOfChunkAt(at).some((l) => l.start <= at && at < l.end));
}

/** Whether a keyword stands within the window of a span; `keywords` in text order. */
function nearKeywordIn(keywords: readonly Span[]): (c: Span) => boolean {
  return (c) => {
    // the first keyword ending after the window opens; keywords do not overlap, so ends ascend too
    let lo = 0;
    let hi = keywords.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((keywords[mid] as Span).end < c.start - KEYWORD_WINDOW) lo = mid + 1;
      else hi = mid;
    }
    const k = keywords[lo];
    return k !== undefined && gap(k, c) <= KEYWORD_WINDOW;
  };
}

// ---- the codes of a mail ----------------------------------------------------------------------

interface Found extends Candidate {
  /** 0: digit-only next to a keyword, 1: other next to a keyword, 2: the subject's only run */
  rank: 0 | 1 | 2;
  /** 0: subject, 1: body */
  where: 0 | 1;
  context: string;
}

function contextOf(text: string, c: Span): string {
  const len = c.end - c.start;
  const room = Math.max(0, CONTEXT_CHARS - len);
  let left = Math.floor(room / 2);
  let right = room - left;
  const spareLeft = left - c.start;
  const spareRight = right - (text.length - c.end);
  if (spareLeft > 0) right += spareLeft;
  if (spareRight > 0) left += spareRight;
  return text
    .slice(Math.max(0, c.start - left), Math.min(text.length, c.end + right))
    .replace(/\n/g, " ")
    .trim();
}

function findIn(raw: string, where: 0 | 1): Found[] {
  const text = fold(raw);
  const keywords = keywordSpans(text);
  const nearKeyword = nearKeywordIn(keywords);
  const inLink = linkChecker(text);
  const found: Found[] = [];
  const runs: Candidate[] = [];
  const values = new Set<string>();
  let digitValues = 0;
  for (const c of candidates(text)) {
    if (values.has(c.value)) continue; // its first place in this text is the one that counts
    // in the subject every run counts (is it the only one?); in a body only those near a keyword
    const near = nearKeyword(c);
    if ((where === 1 && !near) || excluded(text, c) || parenthesisedTag(text, c, keywords) || inLink(c)) continue;
    runs.push(c);
    if (!near) continue;
    found.push({ ...c, rank: c.digitsOnly ? 0 : 1, where, context: contextOf(text, c) });
    values.add(c.value);
    // five distinct digit-only codes fill the list: nothing later in this text can enter it
    if (c.digitsOnly && ++digitValues === MAX_CODES) break;
  }
  if (where === 0 && runs.length === 1 && found.length === 0) {
    const only = runs[0] as Candidate;
    found.push({ ...only, rank: 2, where, context: contextOf(text, only) });
  }
  return found;
}

/**
 * The one-time codes of a mail (extensions section 2), in order: digit-only codes next to a
 * keyword, other codes next to a keyword, then the subject's only run; within each, subject
 * before body and by position. Each value once, at most five.
 */
export function extractCodes(subject: string, body: string): ExtractedCode[] {
  const all = [...findIn(subject, 0), ...findIn(body.slice(0, MAX_SCANNED_CHARS), 1)];
  all.sort((a, b) => a.rank - b.rank || a.where - b.where || a.start - b.start);
  const seen = new Set<string>();
  const codes: ExtractedCode[] = [];
  for (const c of all) {
    if (seen.has(c.value)) continue;
    seen.add(c.value);
    codes.push({ value: c.value, context: c.context });
    if (codes.length === MAX_CODES) break;
  }
  return codes;
}
