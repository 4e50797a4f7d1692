import { addressesOf, decodeWords } from "./addresses";

describe("addressesOf", () => {
  it.each([
    ["a bare address", "ann@acme.test", [{ address: "ann@acme.test", name: "" }]],
    ["a name and an address", "Ann Lee <ann@acme.test>", [{ address: "ann@acme.test", name: "Ann Lee" }]],
    [
      "a quoted name with a comma",
      '"Lee, Ann" <ann@acme.test>, bob@acme.test',
      [
        { address: "ann@acme.test", name: "Lee, Ann" },
        { address: "bob@acme.test", name: "" },
      ],
    ],
    ["an encoded name", "=?UTF-8?B?SsO8cmdlbg==?= <j@acme.test>", [{ address: "j@acme.test", name: "Jürgen" }]],
    [
      "a Q-encoded name in two words",
      "=?ISO-8859-1?Q?Andr=E9?= =?ISO-8859-1?Q?_M=FCller?= <am@acme.test>",
      [{ address: "am@acme.test", name: "André Müller" }],
    ],
    [
      "a group",
      "Team: a@acme.test, B <b@acme.test>;",
      [
        { address: "a@acme.test", name: "" },
        { address: "b@acme.test", name: "B" },
      ],
    ],
    ["an empty group", "undisclosed-recipients:;", []],
    ["an old-style comment name", "ann@acme.test (Ann Lee)", [{ address: "ann@acme.test", name: "Ann Lee" }]],
    ["nothing", "", []],
  ])("when the header is %s, then it gives its mailboxes", (_what, header, expected) => {
    expect(addressesOf(header)).toEqual(expected);
  });

  it("when an encoded word names a charset Node does not know, then it stays as written", () => {
    expect(decodeWords("=?x-unknown?B?QUJD?=")).toBe("=?x-unknown?B?QUJD?=");
  });
});
