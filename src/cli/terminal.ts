// Output for people or for scripts: colours and progress lines only on a terminal, never when
// piped, and no colours when NO_COLOR is set (https://no-color.org).

export interface Terminal {
  /** True when the stream is a terminal: progress lines show and colours may. */
  readonly interactive: boolean;
  line(text: string): void;
  /** A transient status line on a terminal (overwritten by the next; "" clears it), nothing when piped. */
  progress(text: string): void;
  green(text: string): string;
  red(text: string): string;
  bold(text: string): string;
  dim(text: string): string;
}

interface OutputStream {
  readonly isTTY?: boolean;
  write(text: string): boolean;
}

export function createTerminal(stream: OutputStream, env: NodeJS.ProcessEnv = process.env): Terminal {
  const interactive = stream.isTTY === true;
  const coloured = interactive && (env.NO_COLOR === undefined || env.NO_COLOR === "");
  const paint = (code: string) => (text: string) => (coloured ? `\x1b[${code}m${text}\x1b[0m` : text);
  let progressShown = false;
  const clearProgress = (): void => {
    if (progressShown) stream.write("\r\x1b[2K");
    progressShown = false;
  };
  return {
    interactive,
    line(text) {
      clearProgress();
      stream.write(`${text}\n`);
    },
    progress(text) {
      if (!interactive) return;
      clearProgress();
      if (text === "") return; // an empty progress line only clears the last one
      stream.write(paint("2")(text));
      progressShown = true;
    },
    green: paint("32"),
    red: paint("31"),
    bold: paint("1"),
    dim: paint("2"),
  };
}
