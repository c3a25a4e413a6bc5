// Dubbo 2 framing: the 16-byte header's layout (magic 0xdabb) and the framer its channels use.
export * from "./frame.js";
export { dubboFramer } from "./frame-decoder.js";
