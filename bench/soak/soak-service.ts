// The contract the soak providers export and the soak consumer calls: a quick echo of varied
// sizes, a computed answer, and a call that sleeps on the provider for a while.
import { defineService, java } from "../../src/index.js";

export const SoakService = defineService("soak.SoakService", {
  /** Answers the text back, prefixed with the provider's id. */
  echo: { args: [java.String], returns: java.String },
  /** Answers the text's length. */
  measure: { args: [java.String], returns: java.int },
  /** Sleeps `ms` on the provider, then answers. */
  slow: { args: [java.int], returns: java.String },
});
