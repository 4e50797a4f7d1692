import { decideRequest } from "./request-policy";
import { chunks, picturedHeight, pngSize, textPage } from "./page";

describe("decideRequest", () => {
  it("answers data: URLs inline and refuses every other scheme", () => {
    expect(decideRequest("data:image/png;base64,AAAA", "image", "blocked")).toBe("serve-inline");
    for (const url of ["file:///etc/passwd", "javascript:alert(1)", "ftp://x.example/a", "blob:null/1", "chrome://settings"]) {
      expect(decideRequest(url, "image", "allowed")).toBe("refuse");
    }
  });
  it("fetches http(s) images only when images are allowed, and never style sheets, fonts or frames", () => {
    expect(decideRequest("https://cdn.example.org/a.png", "image", "allowed")).toBe("fetch-image");
    expect(decideRequest("https://cdn.example.org/a.png", "image", "blocked")).toBe("refuse");
    for (const type of ["stylesheet", "font", "document", "media", "other"]) {
      expect(decideRequest("https://cdn.example.org/x", type, "allowed")).toBe("refuse");
    }
  });
});

describe("the page rules", () => {
  it("escapes a text mail's markup", () => {
    expect(textPage("<script>x</script> & co")).toContain("&#60;script&#62;x&#60;/script&#62; &#38; co");
  });
  it("cuts the pictured height at the maximum", () => {
    expect(picturedHeight(12_345.2, 10_000)).toEqual({ height: 10_000, truncated: true });
    expect(picturedHeight(0, 10_000)).toEqual({ height: 1, truncated: false });
  });
  it("slices into chunks that join back to the whole", () => {
    const data = Buffer.from("abcdefghij");
    expect(chunks(data, 4).map((c) => c.toString())).toEqual(["abcd", "efgh", "ij"]);
    expect(chunks(Buffer.alloc(0), 4)).toHaveLength(1);
  });
  it("reads no size from something that is not a PNG", () => {
    expect(pngSize(Buffer.from("not a png at all, not at all"))).toBeNull();
  });
});
