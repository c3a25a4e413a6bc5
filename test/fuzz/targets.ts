// The fuzz targets: each takes one input and either returns, or fails with the error its code
// documents for bad input (`expected`). Anything else thrown, or a broken invariant, is a finding.
import { RpcError } from "../../src/core/index.js";
import { readRequestHead } from "../../src/protocol/dubbo/codec/request-body.js";
import { HEADER_LENGTH, LENGTH_OFFSET } from "../../src/protocol/dubbo/framing/frame.js";
import { createFrameDecoder } from "../../src/protocol/dubbo/framing/frame-decoder.js";
import { Hessian2Reader } from "../../src/serialize/hessian2/index.js";

export interface FuzzTarget {
  readonly name: string;
  /** Source files whose coverage guides this target. */
  readonly covers: RegExp;
  readonly maxLength: number;
  run(input: Buffer): void;
  /** The failures the code documents for bad input. */
  expected(error: unknown): boolean;
}

const PAYLOAD_LIMIT = 4096;

/**
 * The Dubbo 2 framer over socket chunks (cut where the input's first byte says), then the request
 * head of every whole frame through the Hessian reader, as the provider reads it. The framer reports
 * bad bytes to its sink and must never throw; what it emits must be whole frames.
 */
const frameDecoder: FuzzTarget = {
  name: "frame-decoder",
  covers: /src\/(transport\/frame|protocol\/dubbo\/codec|serialize\/hessian2)/,
  maxLength: 8192,
  run(input) {
    const step = 1 + ((input[0] ?? 0) % 64);
    const decoder = createFrameDecoder(PAYLOAD_LIMIT, {
      frame(frame) {
        const bodyLength = frame.readInt32BE(LENGTH_OFFSET);
        if (frame.length !== HEADER_LENGTH + bodyLength) {
          throw new Error(`frame of ${frame.length} bytes announces a body of ${bodyLength}`);
        }
        try {
          readRequestHead(new Hessian2Reader(frame.subarray(HEADER_LENGTH)));
        } catch (error) {
          if (!(error instanceof RpcError)) throw error;
        }
      },
      oversize(header, bodyLength) {
        if (header.length !== HEADER_LENGTH || bodyLength <= PAYLOAD_LIMIT) {
          throw new Error(`oversize reported for a body of ${bodyLength} bytes`);
        }
      },
      garbage() {},
    });
    for (let at = 1; at < input.length; at += step) decoder.push(input.subarray(at, at + step));
  },
  expected: () => false,
};

/** The Hessian 2 reader: every value of the input, untyped, until the input ends. */
const hessian2Reader: FuzzTarget = {
  name: "hessian2-reader",
  covers: /src\/serialize\/hessian2/,
  maxLength: 4096,
  run(input) {
    const reader = new Hessian2Reader(input);
    for (let values = 0; values < 64 && reader.remaining > 0; values++) reader.readValue();
  },
  expected: (error) => error instanceof RpcError,
};

export const TARGETS: readonly FuzzTarget[] = [frameDecoder, hessian2Reader];
