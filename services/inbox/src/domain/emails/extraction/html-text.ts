import { Parser } from "htmlparser2";

/** One `<a href>` of an HTML part, in document order: the href as written and the anchor's visible text. */
export interface HtmlAnchor {
  href: string;
  text: string;
}

/** What one pass over an HTML part gives: its visible text and its anchors. */
export interface HtmlContent {
  /** The text a reader sees: no tags, no attribute values; blocks and cells end in a newline. */
  text: string;
  anchors: HtmlAnchor[];
}

/** Elements whose content a mail client never shows as text. */
const HIDDEN = new Set(["script", "style", "head", "title", "template", "noframes", "object", "svg", "math"]);

/** Elements that end a line when rendered, so their texts never run together. */
const BLOCK = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "br",
  "caption",
  "center",
  "dd",
  "div",
  "dl",
  "dt",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hr",
  "li",
  "main",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "tr",
  "ul",
]);

/** At most this many anchors are kept: links stop at 100 anyway, and duplicates are common. */
const MAX_ANCHORS = 1000;

/**
 * The visible text and the anchors of an HTML part, in one streaming pass of htmlparser2 (the
 * parser sanitize-html already brings). Entities are decoded by the parser; a malformed document
 * never throws, it is read as a browser would read it as far as the parser can.
 */
export function readHtml(html: string): HtmlContent {
  const out: string[] = [];
  const anchors: HtmlAnchor[] = [];
  let hidden = 0;
  // the anchor being read: its href, its text parts and the alt texts of its images
  let anchor: { href: string; text: string[]; alt: string[] } | null = null;

  const closeAnchor = () => {
    if (!anchor) return;
    const text = foldSpace(anchor.text.join("")) || foldSpace(anchor.alt.join(" "));
    if (anchors.length < MAX_ANCHORS) anchors.push({ href: anchor.href, text });
    anchor = null;
  };

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (HIDDEN.has(name)) {
          hidden++;
          return;
        }
        if (hidden) return;
        if (name === "a") {
          closeAnchor(); // an unclosed <a> ends where the next one starts, as in a browser
          if (attribs.href !== undefined) anchor = { href: attribs.href, text: [], alt: [] };
        } else if (name === "img" && anchor && attribs.alt) {
          anchor.alt.push(attribs.alt);
        }
        if (BLOCK.has(name)) out.push("\n");
      },
      ontext(data) {
        if (hidden) return;
        // a line break in the source is a space on screen; only blocks break lines
        const shown = data.replace(/[ \t\r\n\f]+/g, " ");
        out.push(shown);
        anchor?.text.push(shown);
      },
      onclosetag(name) {
        if (HIDDEN.has(name)) {
          if (hidden) hidden--;
          return;
        }
        if (hidden) return;
        if (name === "a") closeAnchor();
        if (BLOCK.has(name)) out.push("\n");
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  closeAnchor();
  return { text: tidyLines(out.join("")), anchors };
}

// Characters with no width that mailers use for padding (preheaders) or that split words invisibly.
// (U+034F combines with what precedes it, so it stands outside the class.)
const INVISIBLE = /\u034f|[\u00ad\u180e\u200b-\u200d\u2060\ufeff]/g;

export const dropInvisible = (text: string): string => text.replace(INVISIBLE, "");

/** Runs of white space folded to one space, the ends trimmed; invisible characters dropped. */
export function foldSpace(text: string): string {
  return dropInvisible(text).replace(/\s+/g, " ").trim();
}

/** Lines of the rendered text: spaces inside a line folded, blank lines dropped. */
function tidyLines(text: string): string {
  return dropInvisible(text)
    .split("\n")
    .map((line) => line.replace(/[^\S\n]+/g, " ").trim())
    .filter((line) => line !== "")
    .join("\n");
}

/**
 * The body as text, as both extraction and the wait's `body` matchers read it: the text part
 * when it holds anything but white space, else the visible text of the HTML part.
 */
export function bodyTextOf(text: string | null | undefined, html: string | null | undefined): string {
  if (text != null && text.trim() !== "") return text;
  return html != null && html !== "" ? readHtml(html).text : "";
}
