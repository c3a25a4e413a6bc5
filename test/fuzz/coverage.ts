// Coverage feedback from V8 itself (the inspector's precise block coverage, as `c8` reads it):
// after each input, the blocks of the code under test that ran, so the fuzzer keeps an input that
// reached a block no earlier input did. Node's in-thread inspector session answers synchronously.
import { Session } from "node:inspector";

export interface CoverageProbe {
  /** Keys of the blocks of files matching `include` that ran since the last call (counters reset). */
  blocksRun(include: RegExp): Set<string>;
  stop(): void;
}

interface Range {
  readonly startOffset: number;
  readonly endOffset: number;
  readonly count: number;
}
interface ScriptCoverage {
  readonly url: string;
  readonly functions: ReadonlyArray<{ readonly ranges: readonly Range[] }>;
}

export function startCoverage(): CoverageProbe {
  const session = new Session();
  session.connect();
  const post = <T>(method: string, params?: object): T => {
    let result: T | undefined;
    let failure: Error | null = null;
    session.post(method, params ?? {}, (error, answer) => {
      failure = error;
      result = answer as T;
    });
    if (failure !== null) throw failure;
    if (result === undefined) throw new Error(`the inspector did not answer ${method} synchronously`);
    return result;
  };
  post("Profiler.enable");
  post("Profiler.startPreciseCoverage", { callCount: true, detailed: true });
  return {
    blocksRun(include) {
      const { result } = post<{ result: ScriptCoverage[] }>("Profiler.takePreciseCoverage");
      const blocks = new Set<string>();
      for (const script of result) {
        if (!include.test(script.url)) continue;
        for (const fn of script.functions) {
          for (const range of fn.ranges) {
            if (range.count > 0) blocks.add(`${script.url}:${range.startOffset}-${range.endOffset}`);
          }
        }
      }
      return blocks;
    },
    stop() {
      post("Profiler.stopPreciseCoverage");
      session.disconnect();
    },
  };
}
