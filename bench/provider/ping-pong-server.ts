// The provider-side ceiling: reads dubbo frames and writes each one back as it came, no decoding.
import { startRawEchoServer } from "../e2e/raw-echo-server.js";
import type { EchoServer } from "../e2e/workloads.js";
import { createDubboFrameReader } from "./dubbo-frames.js";

export function startPingPongServer(): Promise<EchoServer> {
  return startRawEchoServer(createDubboFrameReader);
}
