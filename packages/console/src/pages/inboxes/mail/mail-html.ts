// Mail HTML made safe to show in a sandboxed frame. The frame is the guard (no scripts, no same
// origin, no forms, no top navigation); this adds a second one (a CSP of its own) and keeps remote
// content off until the reader asks: no request leaves the browser for a remote image, a
// stylesheet or a font before that.

export interface PreparedHtml {
  /** The document for the frame's `srcdoc`. */
  srcdoc: string;
  /** Remote images (and other remote references) held back; 0 when none or when they are allowed. */
  blocked: number;
}

const REMOTE = /^\s*(https?:)?\/\//i;
const CSS_REMOTE_URL = /url\(\s*(['"]?)\s*(?:https?:)?\/\/[^)]*\1\s*\)/gi;
const DROP = "script,noscript,iframe,frame,frameset,object,embed,applet,base,meta,link,template,portal";

/** The CSP of the frame's document: nothing but inline styles and inline (data:) images, remote images when allowed. */
export function frameCsp(loadRemote: boolean): string {
  const img = loadRemote ? "data: http: https:" : "data:";
  return `default-src 'none'; img-src ${img}; style-src 'unsafe-inline'; font-src data:; form-action 'none'; base-uri 'none'`;
}

export function prepareMailHtml(html: string, opts: { loadRemote: boolean }): PreparedHtml {
  // DOMParser documents are inert: nothing in them loads or runs while we work on them
  const doc = new DOMParser().parseFromString(html, "text/html");
  let blocked = 0;

  for (const el of [...doc.querySelectorAll(DROP)]) {
    if (el.tagName.toLowerCase() === "link" && !opts.loadRemote && /stylesheet/i.test(el.getAttribute("rel") ?? "")) blocked++;
    el.remove();
  }

  for (const el of [...doc.querySelectorAll("*")]) {
    for (const attr of [...el.attributes]) {
      const name = attr.name.toLowerCase();
      if (name.startsWith("on") || name === "formaction" || name === "srcdoc" || name === "ping") el.removeAttribute(attr.name);
    }
    const tag = el.tagName.toLowerCase();
    if (tag === "a" || tag === "area") {
      const href = el.getAttribute("href");
      if (href !== null) {
        if (/^\s*(https?:|mailto:)/i.test(href)) {
          el.setAttribute("target", "_blank");
          el.setAttribute("rel", "noopener noreferrer");
        } else {
          // javascript:, data:, vbscript:, relative links (to nowhere in a srcdoc): not followable
          el.removeAttribute("href");
          el.setAttribute("data-bb-blocked-href", "");
        }
      }
    }
    if (tag === "form") {
      el.removeAttribute("action");
      el.setAttribute("data-bb-inert-form", "");
    }
    if (tag === "img" || tag === "image" || tag === "input" || tag === "source" || tag === "video" || tag === "audio") {
      for (const a of ["src", "href", "xlink:href", "poster"]) {
        const v = el.getAttribute(a);
        if (v === null || /^\s*data:/i.test(v)) continue;
        if (REMOTE.test(v)) {
          if (opts.loadRemote) continue;
          el.setAttribute(`data-bb-${a.replace(":", "-")}`, v);
          blocked++;
        }
        // cid: parts and relative paths (which would resolve against the console) are not shown
        el.removeAttribute(a);
      }
      if (el.hasAttribute("srcset")) {
        if (!opts.loadRemote) blocked++;
        if (!opts.loadRemote) el.removeAttribute("srcset");
      }
    }
    const background = el.getAttribute("background");
    if (background !== null && REMOTE.test(background) && !opts.loadRemote) {
      el.removeAttribute("background");
      blocked++;
    }
    const style = el.getAttribute("style");
    if (style && !opts.loadRemote && CSS_REMOTE_URL.test(style)) {
      CSS_REMOTE_URL.lastIndex = 0;
      const n = style.match(CSS_REMOTE_URL)?.length ?? 0;
      blocked += n;
      el.setAttribute("style", style.replace(CSS_REMOTE_URL, "none"));
    }
    CSS_REMOTE_URL.lastIndex = 0;
  }
  for (const st of [...doc.querySelectorAll("style")]) {
    const css = st.textContent ?? "";
    if (!opts.loadRemote) {
      const n = (css.match(CSS_REMOTE_URL)?.length ?? 0) + (css.match(/@import/gi)?.length ?? 0);
      if (n > 0) {
        blocked += n;
        st.textContent = css.replace(/@import[^;]*;?/gi, "").replace(CSS_REMOTE_URL, "none");
      }
    }
  }

  const head = [
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${frameCsp(opts.loadRemote)}">`,
    '<meta name="referrer" content="no-referrer">',
    "<style>html{background:#fff;color:#111}body{margin:12px;font-family:system-ui,sans-serif;overflow-wrap:anywhere}img{max-width:100%;height:auto}</style>",
    // the mail's own styles, after ours so that they win
    ...[...doc.head.querySelectorAll("style")].map((s) => s.outerHTML),
  ].join("");
  const body = doc.body ? doc.body.outerHTML : "<body></body>";
  return { srcdoc: `<!doctype html><html><head>${head}</head>${body}</html>`, blocked };
}
