import { DoIUseEmail } from "@jsx-email/doiuse-email";
import type { HtmlCheck, HtmlCheckIssue } from "@burnbox/contracts";

/** Every client the caniemail data the library ships knows, as `family.platform`. */
const ALL_CLIENTS = ["*"];

type Support = "none" | "partial";

/** What the checker found of one feature: each client's support short of full, and caniemail's notes per client. */
interface FeatureFinding {
  support: Map<string, Support>;
  notes: Map<string, string[]>;
}

/**
 * The library's checker, made to report by feature and client rather than by sentence: each
 * feature it finds is judged one client at a time, so that its error (no support), warning
 * (partial support) and note callbacks know which feature and which client they are about.
 */
class FeatureRecorder extends DoIUseEmail {
  readonly clientsChecked: string[];
  /** Feature title -> what was found short of full support; insertion order is the order of first use. */
  readonly found = new Map<string, FeatureFinding>();
  /** Feature title -> the clients the data judges it for (every feature the HTML uses, fully supported or not). */
  readonly judged = new Map<string, Set<string>>();
  private current: { title: string; client: string } | null = null;

  constructor() {
    super({ emailClients: ALL_CLIENTS });
    this.clientsChecked = [...this.emailClients];
  }

  override checkFeaturesSupport(featureTitles: string | string[]): void {
    const all = this.emailClients;
    try {
      for (const title of [featureTitles].flat()) {
        // met again: judged already, with the same data
        if (this.judged.has(title)) continue;
        const judged = new Set<string>();
        this.judged.set(title, judged);
        for (const client of this.clientsChecked) {
          this.current = { title, client };
          this.emailClients = [client as (typeof all)[number]];
          try {
            super.checkFeaturesSupport(title);
            judged.add(client);
          } catch {
            // the data says nothing of this feature for this client: it is not judged there
          }
        }
      }
    } finally {
      this.emailClients = all;
      this.current = null;
    }
  }

  override error(): void {
    this.mark("none");
  }

  override warning(): void {
    this.mark("partial");
  }

  /** The library's sentence is "Note about `<title>` support for `<client>`: <text>"; only the text is kept. */
  override note(message: string): void {
    if (!this.current) return;
    const text = message.slice(message.indexOf("`: ") + 3).trim();
    if (!text) return;
    const notes = this.findingOf(this.current.title).notes;
    const held = notes.get(this.current.client);
    if (!held) notes.set(this.current.client, [text]);
    else if (!held.includes(text)) held.push(text);
  }

  private findingOf(title: string): FeatureFinding {
    let finding = this.found.get(title);
    if (!finding) this.found.set(title, (finding = { support: new Map(), notes: new Map() }));
    return finding;
  }

  private mark(support: Support): void {
    if (!this.current) return;
    this.findingOf(this.current.title).support.set(this.current.client, support);
  }
}

/**
 * The document's wrapper elements (extensions section 7): clients strip `<html>`, `<head>`,
 * `<body>` and the doctype while still showing the content, so they are listed, never scored.
 */
export function isWrapperFeature(title: string): boolean {
  return /^<(html|head|body)>( element)?$/i.test(title) || /doctype/i.test(title);
}

/** The caniemail slug of each feature title (`display:flex` -> `css-display-flex`), from the data's feature URLs. */
let slugs: Map<string, string> | null = null;
function slugOf(title: string): string {
  if (!slugs) {
    // with no client to judge, the library lists every feature as supported: all titles with their URLs
    const lister = new FeatureRecorder();
    lister.emailClients = [];
    slugs = new Map(lister.getSupportedFeatures().map((f) => [f.name, /\/features\/([^/]+)\/?$/.exec(f.link)?.[1] ?? f.name]));
  }
  return slugs.get(title) ?? title;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** How to find where the HTML first uses a feature, from its caniemail title; null when the title says too little. */
function patternOf(title: string): RegExp | null {
  const element = /^<([a-z][a-z0-9-]*)[^>]*> element$/i.exec(title) ?? /<([a-z][a-z0-9-]*)>/i.exec(title);
  if (element) return new RegExp(`<${escapeRe(element[1]!)}\\b`, "i");
  const attribute = /^([a-z-]+) attribute$/i.exec(title);
  if (attribute) return new RegExp(`\\s${escapeRe(attribute[1]!)}\\s*=`, "i");
  const pair = /^([a-z-]+):([a-z-]+)$/i.exec(title);
  if (pair) return new RegExp(`(?<![-\\w])${escapeRe(pair[1]!)}\\s*:\\s*${escapeRe(pair[2]!)}(?![-\\w])`, "i");
  if (/^[a-z-]+$/.test(title)) return new RegExp(`(?<![-\\w])${escapeRe(title)}\\s*:`, "i");
  const fn = /^([a-z-]+)\(\)$/i.exec(title);
  if (fn) return new RegExp(`(?<![-\\w])${escapeRe(fn[1]!)}\\(`, "i");
  if (/^(@|::?)[a-z-]+/i.test(title)) return new RegExp(escapeRe(/^(@|::?)[a-z-]+/i.exec(title)![0]), "i");
  return null;
}

/** The 1-based line of the first match of `pattern` in `html`, if any. */
function lineOf(html: string, pattern: RegExp | null): number | undefined {
  const at = pattern ? html.search(pattern) : -1;
  if (at < 0) return undefined;
  let line = 1;
  for (let i = 0; i < at; i++) if (html.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * One client's support of the scored features the HTML uses, from 0 to 1 (extensions section 7):
 * 1 when it supports each fully; each unsupported feature takes its share away, a partly supported
 * one half of its share. `judged`: how many scored features the data judges for the client (1
 * when none). Exported for its unit tests.
 */
export function clientSupport(judged: number, unsupported: number, partial: number): number {
  return judged === 0 ? 1 : 1 - (unsupported + partial / 2) / judged;
}

/** The mean of the clients' supports as a percentage with one decimal (100 when no client was checked). */
export function scoreOf(supports: readonly number[]): number {
  if (supports.length === 0) return 100;
  const mean = supports.reduce((a, b) => a + b, 0) / supports.length;
  return Math.round(mean * 1000) / 10;
}

/**
 * Extensions section 7: the HTML's features judged against every client of the caniemail data.
 * `issues`: each feature some client lacks or supports in part, in the order the checker met them,
 * with the line of its first use when its title says how to find it, the caniemail notes of the
 * clients it names, and `scored: false` for the document's wrappers; `score`: the mean of the
 * clients' support of the scored features (`clientSupport`), a percentage with one decimal.
 */
export function judgeHtml(html: string): HtmlCheck {
  const recorder = new FeatureRecorder();
  recorder.check(html);
  const clients = recorder.clientsChecked;
  const tally = new Map<string, { judged: number; unsupported: number; partial: number }>(
    clients.map((c) => [c, { judged: 0, unsupported: 0, partial: 0 }]),
  );
  for (const [title, judged] of recorder.judged) {
    if (isWrapperFeature(title)) continue;
    for (const c of judged) tally.get(c)!.judged += 1;
  }
  const issues: HtmlCheckIssue[] = [];
  for (const [title, { support, notes }] of recorder.found) {
    const unsupported = clients.filter((c) => support.get(c) === "none");
    const partial = clients.filter((c) => support.get(c) === "partial");
    // a feature every client supports fully is no issue, whatever its notes say
    if (unsupported.length === 0 && partial.length === 0) continue;
    const scored = !isWrapperFeature(title);
    if (scored) {
      for (const c of unsupported) tally.get(c)!.unsupported += 1;
      for (const c of partial) tally.get(c)!.partial += 1;
    }
    const named: Record<string, string> = {};
    for (const c of [...unsupported, ...partial]) {
      const texts = notes.get(c);
      if (texts) named[c] = texts.join(" ");
    }
    const issue: HtmlCheckIssue = {
      feature: slugOf(title),
      clients_unsupported: unsupported,
      clients_partial: partial,
      scored,
      notes: named,
    };
    const line = lineOf(html, patternOf(title));
    if (line !== undefined) issue.line = line;
    issues.push(issue);
  }
  const score = scoreOf([...tally.values()].map((t) => clientSupport(t.judged, t.unsupported, t.partial)));
  return { score, clients, issues };
}
