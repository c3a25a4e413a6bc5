import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ByteChunks } from "./byte-chunks.js";
import { ChildNames, type ChildrenSplice, withoutNames } from "./child-names.js";

const splice = (before: string[], after: string[]): ChildrenSplice =>
  ChildNames.of(before).spliceTo(ChildNames.of(after));

/** A reply frame: size, xid, zxid, error 0, `count`, then `body`, then a 68-byte stat. */
function reply(count: number, body: Buffer): Buffer {
  const frame = Buffer.alloc(24 + body.length + 68);
  frame.writeInt32BE(frame.length - 4, 0);
  frame.writeInt32BE(count, 20);
  body.copy(frame, 24);
  return frame;
}

/** The reply listing `names`, as a socket would hand it over: cut into chunks of 1 to `most` bytes. */
function chunkedReply(names: readonly string[], most: number, random: (n: number) => number): ChildNames {
  const body = Buffer.concat(
    names.flatMap((name) => {
      const bytes = Buffer.from(name, "utf8");
      const length = Buffer.alloc(4);
      length.writeInt32BE(bytes.length);
      return [length, bytes];
    }),
  );
  const frame = reply(names.length, body);
  const chunks: Buffer[] = [];
  for (let at = 0; at < frame.length; ) {
    // Each chunk its own memory, as a socket's are (pooled ones would be compacted into one).
    const chunk = Buffer.alloc(Math.min(1 + random(most), frame.length - at));
    frame.copy(chunk, 0, at);
    chunks.push(chunk);
    at += chunk.length;
  }
  return ChildNames.ofReply(new ByteChunks(chunks));
}

function seededRandom(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state % n;
  };
}

/** The splice found by comparing the names as strings, head first then tail. */
function splicedByStrings(before: string[], after: string[]): ChildrenSplice {
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start < shorter && before[start] === after[start]) start++;
  let beforeEnd = before.length;
  let afterEnd = after.length;
  while (beforeEnd > start && afterEnd > start && before[beforeEnd - 1] === after[afterEnd - 1]) {
    beforeEnd--;
    afterEnd--;
  }
  return { start, beforeEnd, afterEnd };
}

/**
 * `rounds` seeded lists of `name()`s (every `longEvery`th one `longSize` long), each with the
 * same list after one to four adds or removes.
 */
function* editedLists(
  random: (n: number) => number,
  name: () => string,
  rounds: number,
  longEvery: number,
  longSize: number,
): Generator<[number, string[], string[]]> {
  for (let round = 0; round < rounds; round++) {
    const before = Array.from({ length: round % longEvery === 0 ? longSize : random(12) }, name);
    const after = [...before];
    for (let edits = random(3); edits >= 0; edits--) {
      const at = random(after.length + 1);
      if (random(2) === 0) after.splice(at, 0, name());
      else after.splice(at, 1);
    }
    yield [round, before, after];
  }
}

describe("child names", () => {
  test("child names - names decode one by one from the reply's bytes, multi-byte UTF-8 included", () => {
    const names = ChildNames.of(["a", "dubbo%3A%2F%2Fé", ""]);
    assert.equal(names.length, 3);
    assert.equal(names.at(1), "dubbo%3A%2F%2Fé");
    assert.deepEqual(names.toArray(), ["a", "dubbo%3A%2F%2Fé", ""]);
    assert.equal(ChildNames.EMPTY.length, 0);
  });

  test("child names - one add or remove mid-list is a splice of that child only", () => {
    assert.deepEqual(splice(["a", "b", "c"], ["a", "x", "b", "c"]), { start: 1, beforeEnd: 1, afterEnd: 2 });
    assert.deepEqual(splice(["a", "b", "c"], ["a", "c"]), { start: 1, beforeEnd: 2, afterEnd: 1 });
    assert.deepEqual(splice(["a", "b"], ["a", "b"]), { start: 2, beforeEnd: 2, afterEnd: 2 });
    assert.deepEqual(splice([], ["a"]), { start: 0, beforeEnd: 0, afterEnd: 1 });
    assert.deepEqual(splice(["a"], []), { start: 0, beforeEnd: 1, afterEnd: 0 });
  });

  test("child names - the byte comparison finds the splice the names' strings give", () => {
    // Names of a few lengths over few letters, so that bytes match across name boundaries often;
    // lists longer than one compare block (64 KiB) so the blockwise search is exercised too.
    const random = seededRandom(7);
    const name = (): string =>
      "ab".repeat(random(3)) + "a".repeat(random(3)) + String.fromCharCode(0, 0, 0, random(4));
    for (const [round, before, after] of editedLists(random, name, 200, 20, 20_000)) {
      assert.deepEqual(splice(before, after), splicedByStrings(before, after), `round ${round}`);
    }
  });

  test("child names - names and splices read across the reply's socket chunks, wherever they are cut", () => {
    // Chunks of a few bytes cut length prefixes and multi-byte characters; of up to 3 KiB they
    // cut names at random (each side at other places).
    const random = seededRandom(11);
    const name = (): string =>
      "é".repeat(random(3)) + "ab".repeat(random(300)) + String.fromCharCode(0, 0, 0, random(4));
    for (const [round, before, after] of editedLists(random, name, 150, 15, 3_000)) {
      const most = round % 3 === 0 ? 3_000 : 6;
      const a = chunkedReply(before, most, random);
      const b = chunkedReply(after, most, random);
      assert.deepEqual(a.toArray(), before, `round ${round}`);
      assert.deepEqual(a.spliceTo(b), splicedByStrings(before, after), `round ${round}`);
      assert.deepEqual(b.spliceTo(ChildNames.of(before)), splicedByStrings(after, before), `round ${round}`);
    }
  });

  test("child names - a reordered list is no change; a replaced child is one", () => {
    const before = ChildNames.of(["a", "b", "c", "d"]);
    const check = (after: string[]): boolean => {
      const names = ChildNames.of(after);
      return before.onlyReorders(names, before.spliceTo(names));
    };
    assert.equal(check(["a", "c", "b", "d"]), true);
    assert.equal(check(["a", "x", "c", "d"]), false);
    assert.equal(check(["a", "b", "c", "d", "e"]), false);
  });

  test("child names - a reply whose counts run past its bytes is refused, naming what was wrong", () => {
    const ofReply = (frame: Buffer): ChildNames => ChildNames.ofReply(new ByteChunks([frame]));
    const abc = Buffer.from([0, 0, 0, 3, 97, 98, 99]);
    assert.deepEqual(ofReply(reply(1, abc)).toArray(), ["abc"]);
    assert.throws(() => ofReply(reply(5, abc)), /lists 5 children/);
    const cut = Buffer.concat([abc, Buffer.from([0, 0, 0, 9, 120])]);
    assert.throws(() => ofReply(reply(2, cut)), /child 1 of 2 runs past the reply/);
    const stripped = withoutNames(new ByteChunks([reply(1, abc)]));
    assert.equal(stripped.readInt32BE(0), stripped.length - 4);
    assert.equal(ofReply(stripped).length, 0);
  });
});
