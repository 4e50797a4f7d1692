import { PNG } from "pngjs";
import { visualDiff } from "./visual-diff";

/** A width × height PNG of one colour, with an optional block of another. */
function picture(
  width: number,
  height: number,
  rgb: [number, number, number],
  block?: { x: number; y: number; w: number; h: number; rgb: [number, number, number] },
): Buffer {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const inBlock = block && x >= block.x && x < block.x + block.w && y >= block.y && y < block.y + block.h;
      const [r, g, b] = inBlock ? block.rgb : rgb;
      png.data.set([r, g, b, 255], (y * width + x) * 4);
    }
  }
  return PNG.sync.write(png);
}

describe("visual diff of two renders (extensions section 12)", () => {
  it("when the pictures are identical, then the changed ratio is 0", () => {
    const p = picture(20, 10, [255, 255, 255]);
    expect(visualDiff(p, p).changedRatio).toBe(0);
  });

  it("when a block changes colour, then the ratio is its share and the diff marks it in red", () => {
    const base = picture(20, 10, [255, 255, 255], { x: 0, y: 0, w: 5, h: 2, rgb: [26, 115, 232] });
    const actual = picture(20, 10, [255, 255, 255], { x: 0, y: 0, w: 5, h: 2, rgb: [20, 20, 20] });
    const { changedRatio, diffPng } = visualDiff(base, actual);
    expect(changedRatio).toBeCloseTo(10 / 200, 5);
    const diff = PNG.sync.read(diffPng);
    expect([...diff.data.subarray(0, 4)]).toEqual([255, 0, 0, 255]);
    expect(diff.width).toBe(20);
  });

  it("when the actual picture is taller, then the extra rows count as changed", () => {
    const { changedRatio } = visualDiff(picture(10, 10, [0, 0, 0]), picture(10, 12, [0, 0, 0]));
    expect(changedRatio).toBeCloseTo(20 / 120, 5);
  });
});
