import { errors } from "@burnbox/service-kit/runtime";
import { SlugTakenError, slugify, withFreeSlug } from "./slug";

describe("slugify", () => {
  it("when a name has capitals, spaces and symbols, then the slug keeps lowercase letters and digits joined by dashes", () => {
    expect(slugify("  Acme Widgets -- Team #1! ")).toBe("acme-widgets-team-1");
  });

  it("when a name has accented letters, then they keep their base letter instead of splitting the word", () => {
    expect(slugify("Crème Brûlée Équipe")).toBe("creme-brulee-equipe");
    expect(slugify("Ångström ﬁx")).toBe("angstrom-fix");
  });

  it("when a name has nothing usable, then the slug is random hex", () => {
    expect(slugify("!!!")).toMatch(/^[0-9a-f]{8}$/);
  });

  it("when a name is long, then the slug stops at 50 characters without a trailing dash", () => {
    const slug = slugify(`${"a".repeat(49)} b`);
    expect(slug).toBe("a".repeat(49));
  });
});

describe("withFreeSlug", () => {
  const taken = () => new SlugTakenError("slug taken");

  it("when the derived slug is taken, then it retries with a random suffix", async () => {
    const tried: string[] = [];
    const out = await withFreeSlug({ name: "Acme" }, async (slug) => {
      tried.push(slug);
      if (tried.length < 3) throw taken();
      return slug;
    });
    expect(tried[0]).toBe("acme");
    expect(tried.slice(1)).toEqual([expect.stringMatching(/^acme-[0-9a-f]{6}$/), expect.stringMatching(/^acme-[0-9a-f]{6}$/)]);
    expect(out).toBe(tried[2]);
  });

  it("when a chosen slug is taken, then the conflict is the answer, without a retry", async () => {
    const create = jest.fn(() => Promise.reject(taken()));
    await expect(withFreeSlug({ name: "Acme", slug: "mine" }, create)).rejects.toMatchObject({ code: "conflict", message: "slug taken" });
    expect(create).toHaveBeenCalledTimes(1);
  });

  it("when every suffix is taken too, then it gives up after five tries", async () => {
    const create = jest.fn(() => Promise.reject(taken()));
    await expect(withFreeSlug({ name: "Acme" }, create)).rejects.toMatchObject({ code: "conflict" });
    expect(create).toHaveBeenCalledTimes(5);
  });

  it("when the conflict is another one (a quota, a taken name), then it is not retried", async () => {
    const create = jest.fn(() => Promise.reject(errors.conflict("team limit reached (5)")));
    await expect(withFreeSlug({ name: "Acme" }, create)).rejects.toMatchObject({ message: "team limit reached (5)" });
    expect(create).toHaveBeenCalledTimes(1);
  });

  it("when the failure is not a conflict, then it is not retried", async () => {
    const create = jest.fn(() => Promise.reject(new Error("connection lost")));
    await expect(withFreeSlug({ name: "Acme" }, create)).rejects.toThrow("connection lost");
    expect(create).toHaveBeenCalledTimes(1);
  });
});
