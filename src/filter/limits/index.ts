// Concurrency and rate limits as filters: executes (provider), actives (consumer), tps (provider).
export { activesFilterExtension } from "./actives-filter.js";
export { executesFilterExtension } from "./executes-filter.js";
export { tpsFilterExtension } from "./tps-filter.js";
