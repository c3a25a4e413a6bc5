// Test helpers shared by every layer's tests: scripted fake providers, seeded randomness, and a
// logger that keeps its records.
export { createFakeInvokers, FakeInvoker, unavailableError } from "./fake-invoker.js";
export {
  createRecordingLogger,
  createRecordingSink,
  type RecordingLogger,
} from "./recording-logger.js";
export { createSeededRandom } from "./seeded-random.js";
export { pollUntil, waitFor } from "./wait-for.js";
