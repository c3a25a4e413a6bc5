// Test helpers shared by every layer's tests: scripted fake providers and seeded randomness.
export {
  createFakeInvokers,
  FakeInvoker,
  type FakeInvokerOptions,
  type FakeStep,
  unavailableError,
} from "./fake-invoker.js";
export { createSeededRandom } from "./seeded-random.js";
export { pollUntil, waitFor } from "./wait-for.js";
