// A test-only provider for the interop suites: our dubbo protocol (through the default filter
// chains, as an application gets it) exporting the demo service and a richer contract with a POJO,
// a List of POJOs and a business exception. Served on a free loopback port.
import { BizError, defineService, java, silentLogger, Url } from "../../../src/core/index.js";
import { createFilterExtensionPoint, wrapProtocolWithFilters } from "../../../src/filter/index.js";
import { createDubboProtocol } from "../../../src/protocol/dubbo/index.js";
import { createProviderInvoker } from "../../../src/proxy/index.js";
import type { Logger } from "../../../src/transport/index.js";

export const DEMO_SERVICE = "org.apache.dubbo.demo.DemoService";
export const USER_SERVICE = "com.foo.UserService";

export const User = java.Class("com.foo.User", {
  id: java.long,
  name: java.String,
  tags: java.List(java.String),
});

export interface UserValue {
  id: number | bigint;
  name: string;
  tags: string[];
}

export const DemoService = defineService(DEMO_SERVICE, {
  sayHello: { args: [java.String], returns: java.String },
});

export const UserService = defineService(USER_SERVICE, {
  greet: { args: [User], returns: User },
  names: { args: [java.List(User)], returns: java.List(java.String) },
  listUsers: { args: [java.int], returns: java.List(User) },
  fail: { args: [java.String], returns: java.void },
});

export const FAIL_CLASS = "java.lang.IllegalArgumentException";

const quiet: Logger = silentLogger;

export interface FixtureProvider {
  readonly port: number;
  stop(): Promise<void>;
}

export async function startFixtureProvider(): Promise<FixtureProvider> {
  const protocol = createDubboProtocol({ logger: quiet, shutdownWaitMs: 1000 });
  const filtered = wrapProtocolWithFilters(protocol, createFilterExtensionPoint());
  const demoUrl = Url.parse(`dubbo://127.0.0.1:0/${DEMO_SERVICE}?interface=${DEMO_SERVICE}`);
  const demo = await filtered.export(
    createProviderInvoker(DemoService, { sayHello: (name: string) => `Hello ${name}` }, demoUrl),
  );
  const port = (demo as unknown as { url: Url }).url.port;
  const userUrl = Url.parse(`dubbo://127.0.0.1:${port}/${USER_SERVICE}?interface=${USER_SERVICE}`);
  await filtered.export(
    createProviderInvoker(
      UserService,
      {
        greet: (u: UserValue) => ({
          id: Number(u.id) + 1,
          name: `Hello ${u.name}`,
          tags: [...u.tags, "greeted"],
        }),
        names: (users: UserValue[]) => users.map((u) => u.name),
        listUsers: (n: number) =>
          Array.from({ length: n }, (_, i) => ({ id: 1000 + i, name: `user-${i}`, tags: [`t${i}`] })),
        fail: (name: string): void => {
          throw new BizError(`bad user: ${name}`, { javaClass: FAIL_CLASS });
        },
      },
      userUrl,
    ),
  );
  return { port, stop: () => protocol.destroy() };
}
