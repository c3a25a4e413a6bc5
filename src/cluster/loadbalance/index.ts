export { createConsistentHashLoadBalance } from "./consistent-hash.js";
export { createLeastActiveLoadBalance } from "./least-active.js";
export { createRandomLoadBalance } from "./random.js";
export { createRoundRobinLoadBalance } from "./round-robin.js";
export { createShortestResponseLoadBalance } from "./shortest-response.js";
export { loadBalanceName, warmupWeight, weightOf } from "./weight.js";
