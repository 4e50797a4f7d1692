/** The page a text-only mail is set in: its text, escaped, in a monospace block that wraps, light or dark as the scheme asks. */
export function textPage(text: string): string {
  const escaped = text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return [
    "<!doctype html>",
    '<html><head><meta charset="utf-8"><meta name="color-scheme" content="light dark">',
    "<style>",
    "html{color-scheme:light dark}",
    "body{margin:16px;font:14px/1.45 'DejaVu Sans Mono',monospace;background:#fff;color:#111}",
    "@media (prefers-color-scheme: dark){body{background:#121212;color:#e8e8e8}}",
    "pre{margin:0;white-space:pre-wrap;overflow-wrap:anywhere;font:inherit}",
    "</style></head>",
    `<body><pre>${escaped}</pre></body></html>`,
  ].join("");
}

/** The pixel size a PNG says it has (its IHDR chunk); null for something that is not a PNG. */
export function pngSize(png: Buffer): { width: number; height: number } | null {
  const signature = "89504e470d0a1a0a";
  if (png.length < 24 || png.subarray(0, 8).toString("hex") !== signature || png.subarray(12, 16).toString("latin1") !== "IHDR")
    return null;
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** Consecutive slices of at most `size` bytes (one at least, so an empty buffer is one empty chunk). */
export function chunks(data: Buffer, size: number): Buffer[] {
  if (size <= 0) throw new Error("chunk size must be positive");
  const out: Buffer[] = [];
  for (let at = 0; at < data.length; at += size) out.push(data.subarray(at, at + size));
  return out.length > 0 ? out : [Buffer.alloc(0)];
}

/** The height pictured: the page's own, at least 1 px, cut at `max`. */
export function picturedHeight(contentHeight: number, max: number): { height: number; truncated: boolean } {
  const h = Math.max(1, Math.ceil(contentHeight));
  return h > max ? { height: max, truncated: true } : { height: h, truncated: false };
}
