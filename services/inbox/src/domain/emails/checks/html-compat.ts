import { DoIUseEmail } from "@jsx-email/doiuse-email";
import type { HtmlCheck, HtmlCheckIssue } from "@burnbox/contracts";

/** Every client the caniemail data the library ships knows, as `family.platform`. */
const ALL_CLIENTS = ["*"];

type Support = "none" | "partial";

/**
 * The library's checker, made to report by feature and client rather than by sentence: each
 * feature it finds is judged one client at a time, so that its error (no support) and warning
 * (partial support) callbacks know which feature and which client they are about.
 */
class FeatureRecorder extends DoIUseEmail {
  readonly clientsChecked: string[];
  /** Feature title -> client -> support short of full; insertion order is the order of first use. */
  readonly found = new Map<string, Map<string, Support>>();
  private current: { title: string; client: string } | null = null;

  constructor() {
    super({ emailClients: ALL_CLIENTS });
    this.clientsChecked = [...this.emailClients];
  }

  override checkFeaturesSupport(featureTitles: string | string[]): void {
    const all = this.emailClients;
    try {
      for (const title of [featureTitles].flat()) {
        for (const client of this.clientsChecked) {
          this.current = { title, client };
          this.emailClients = [client as (typeof all)[number]];
          try {
            super.checkFeaturesSupport(title);
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

  override note(): void {
    // the notes' prose is not part of the report
  }

  private mark(support: Support): void {
    if (!this.current) return;
    const { title, client } = this.current;
    let clients = this.found.get(title);
    if (!clients) this.found.set(title, (clients = new Map<string, Support>()));
    // a feature met twice keeps its worst support for a client
    if (clients.get(client) !== "none") clients.set(client, support);
  }
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
 * Extensions section 7: the HTML's features judged against every client of the caniemail data.
 * `issues`: each feature some client lacks or supports in part, in the order the checker met them,
 * with the line of its first use when its title says how to find it; `score`: the share of the
 * clients that support every feature fully (partial support counts as none), rounded down.
 */
export function judgeHtml(html: string): HtmlCheck {
  const recorder = new FeatureRecorder();
  recorder.check(html);
  const clients = recorder.clientsChecked;
  const lacking = new Set<string>();
  const issues: HtmlCheckIssue[] = [];
  for (const [title, support] of recorder.found) {
    const unsupported = clients.filter((c) => support.get(c) === "none");
    const partial = clients.filter((c) => support.get(c) === "partial");
    for (const c of support.keys()) lacking.add(c);
    const issue: HtmlCheckIssue = { feature: slugOf(title), clients_unsupported: unsupported, clients_partial: partial };
    const line = lineOf(html, patternOf(title));
    if (line !== undefined) issue.line = line;
    issues.push(issue);
  }
  const score = clients.length === 0 ? 100 : Math.floor(((clients.length - lacking.size) * 100) / clients.length);
  return { score, clients, issues };
}
