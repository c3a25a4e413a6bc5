// Concurrency and rate limits as filters: executes (provider), actives (consumer), tps (provider).
export { activesFilter, activesFilterExtension } from "./actives-filter.js";
export { executesFilter, executesFilterExtension } from "./executes-filter.js";
export { tpsFilter, tpsFilterExtension } from "./tps-filter.js";
