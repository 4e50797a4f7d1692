import pixelmatch from "pixelmatch";
import { PNG } from "pngjs";

/** Per-pixel colour distance pixelmatch still counts as equal (0..1): anti-aliasing noise, not a change. */
export const PIXEL_THRESHOLD = 0.1;

/** A picture padded to `width` × `height` with transparent pixels (pictures of different heights compare as changed there). */
function padded(png: PNG, width: number, height: number): Buffer {
  if (png.width === width && png.height === height) return png.data;
  const out = Buffer.alloc(width * height * 4);
  for (let y = 0; y < png.height; y++) png.data.copy(out, y * width * 4, y * png.width * 4, y * png.width * 4 + png.width * 4);
  return out;
}

/**
 * Two PNGs compared pixel by pixel: the share of changed pixels over the larger picture (0 when
 * identical, 1 when everything differs) and a diff PNG, the actual picture faded with the changed
 * pixels marked in red. Pure: bytes in, bytes out.
 */
export function visualDiff(baselinePng: Buffer, actualPng: Buffer): { changedRatio: number; diffPng: Buffer } {
  const a = PNG.sync.read(baselinePng);
  const b = PNG.sync.read(actualPng);
  const width = Math.max(a.width, b.width);
  const height = Math.max(a.height, b.height);
  const diff = new PNG({ width, height });
  if (width === 0 || height === 0) return { changedRatio: 0, diffPng: PNG.sync.write(diff) };
  const changed = pixelmatch(padded(a, width, height), padded(b, width, height), diff.data, width, height, {
    threshold: PIXEL_THRESHOLD,
    includeAA: false,
    alpha: 0.2,
    diffColor: [255, 0, 0],
  });
  return { changedRatio: changed / (width * height), diffPng: PNG.sync.write(diff) };
}
