// Mergers: how the mergeable cluster turns several groups' results into one (Dubbo's Merger SPI).
export {
  arrayMerger,
  concatArrays,
  listMerger,
  mapMerger,
  registerBuiltinMergers,
  setMerger,
} from "./builtin-mergers.js";
export { isDefaultMergerSetting, isNoMergerSetting, MERGER_KEY, type Merger } from "./merger.js";
export { type MergeSite, mergerForType, mergeWithMethod, resolveMerger } from "./merger-selection.js";
