// The dubbo-js v4 provider (npm apache-dubbo-service 0.0.1, CommonJS) serving the bench's echo
// service. It needs a registry; this one registers nowhere, so consumers connect directly.
// It listens on a port of its own choosing (get-port), on every interface: it has no host option.
import { createRequire } from "node:module";
import type { EchoServer } from "../e2e/workloads.js";
import { EchoService } from "../e2e/workloads.js";

interface DubboJsService {
  ready(): Promise<void>;
  getPort(): number;
  close(): Promise<void>;
}

interface DubboJsServiceClass {
  from(props: {
    registry: object;
    services: Record<
      string,
      { dubboInterface: string; methods: Record<string, (...args: never[]) => unknown> }
    >;
  }): DubboJsService;
}

const require = createRequire(import.meta.url);
const { DubboService } = require("apache-dubbo-service") as { DubboService: DubboJsServiceClass };

const directOnly = {
  ready: async () => {},
  registerServices: async () => {},
  getClient: () => ({}),
  close: () => {},
};

export async function startDubboJsServer(): Promise<EchoServer> {
  const service = DubboService.from({
    registry: directOnly,
    services: {
      echo: {
        dubboInterface: EchoService.interfaceName,
        methods: { echoText: (text: string) => text, echoUser: (user: object) => user },
      },
    },
  });
  await service.ready();
  return { port: service.getPort(), close: () => service.close() };
}
