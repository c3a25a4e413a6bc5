// The application: one object that owns the extension points, exports services, creates
// references and stops everything in order.
export {
  type AppLogger,
  createDubbo,
  DubboApplication,
  type DubboOptions,
  type ExportedService,
  type ReferenceOptions,
  type RegisterMockOptions,
} from "./application.js";
export type { Extensions, Plugin, ProtocolContext, ProtocolFactory } from "./extensions.js";
