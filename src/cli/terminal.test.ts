import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createTerminal } from "./terminal.js";

function stream(isTTY: boolean): { isTTY: boolean; text: string; write(s: string): boolean } {
  return {
    isTTY,
    text: "",
    write(s) {
      this.text += s;
      return true;
    },
  };
}

describe("terminal output", () => {
  test("terminal - a terminal gets colours and a progress line that the next line replaces", () => {
    const out = stream(true);
    const terminal = createTerminal(out, {});
    terminal.progress("calling …");
    terminal.line(terminal.green("ok"));
    assert.equal(out.text, "\x1b[2mcalling …\x1b[0m\r\x1b[2K\x1b[32mok\x1b[0m\n");
  });

  test("terminal - piped output is plain and has no progress; NO_COLOR keeps a terminal plain", () => {
    const piped = stream(false);
    const plain = createTerminal(piped, {});
    plain.progress("calling …");
    plain.line(plain.bold("result:"));
    assert.equal(piped.text, "result:\n");
    const noColor = stream(true);
    const terminal = createTerminal(noColor, { NO_COLOR: "1" });
    terminal.line(terminal.red("failed"));
    assert.equal(noColor.text, "failed\n");
  });
});
