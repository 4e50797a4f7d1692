/**
 * The largest counted repetition of an RE2 pattern, nested counts multiplied: `a{5}` is 5,
 * `(a{10}b){20}` is 200, `a{3}b{4}` is 4 (side by side they add to the program, not to each
 * other; the program's size bounds that). `{n}` counts n, `{n,m}` m, `{n,}` n (as RE2's own
 * parser counts them); `*`, `+` and `?` count 1. Reads the pattern as RE2 does: `\` escapes,
 * `\Q…\E` literal runs, character classes (`[]a]`, `[^]a]`, `[[:alpha:]]`), and a `{` that does
 * not open a valid count is a literal.
 *
 * re2js parses the same bound (1000) but exposes neither the parse tree nor that product, and a
 * compiled program's size alone does not say which part of it is too large.
 */
export function countedRepetitionTotal(pattern: string): number {
  // each open group: the largest product within it so far
  const groups: number[] = [];
  let innerMax = 1;
  // the product of the atom just read (a repetition applies to it)
  let lastAtom = 1;
  let overall = 1;
  const note = (n: number) => {
    innerMax = Math.max(innerMax, n);
    overall = Math.max(overall, n);
  };
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === "\\") {
      if (pattern[i + 1] === "Q") {
        const end = pattern.indexOf("\\E", i + 2);
        i = end < 0 ? pattern.length : end + 2;
      } else if ((pattern[i + 1] === "p" || pattern[i + 1] === "P" || pattern[i + 1] === "x") && pattern[i + 2] === "{") {
        const end = pattern.indexOf("}", i + 3);
        i = end < 0 ? pattern.length : end + 1;
      } else {
        i += pattern[i + 1] === "p" || pattern[i + 1] === "P" ? 3 : 2;
      }
      lastAtom = 1;
      continue;
    }
    if (c === "[") {
      i = classEnd(pattern, i);
      lastAtom = 1;
      continue;
    }
    if (c === "(") {
      groups.push(innerMax);
      innerMax = 1;
      i += 1;
      lastAtom = 1;
      continue;
    }
    if (c === ")") {
      const inside = innerMax;
      innerMax = Math.max(groups.pop() ?? 1, inside);
      lastAtom = inside;
      i += 1;
      continue;
    }
    if (c === "{") {
      const m = /^\{(\d+)(?:(,)(\d*))?\}/.exec(pattern.slice(i, i + 24));
      if (m) {
        const min = Number(m[1]);
        const max = m[2] === undefined ? min : m[3] === "" ? min : Number(m[3]);
        lastAtom *= Math.max(min, max, 1);
        note(lastAtom);
        i += m[0].length;
        continue;
      }
    }
    // any other character (a literal, `.`, `|`, `^`, `$`, `*`, `+`, `?`): no count of its own
    if (c !== "*" && c !== "+" && c !== "?") lastAtom = 1;
    i += 1;
  }
  return overall;
}

/** Where a character class that opens at `start` (`[`) ends: the index after its `]`. */
function classEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === "^") i += 1;
  // a `]` first is a literal
  if (pattern[i] === "]") i += 1;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === "\\") {
      i += 2;
      continue;
    }
    if (c === "[" && pattern[i + 1] === ":") {
      const end = pattern.indexOf(":]", i + 2);
      if (end >= 0) {
        i = end + 2;
        continue;
      }
    }
    if (c === "]") return i + 1;
    i += 1;
  }
  return pattern.length;
}
