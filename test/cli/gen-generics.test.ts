// `dubbo-ts gen` on interfaces that extend generic ones, in a jar compiled here from Java sources
// of ours (java/generic): the superinterfaces' type variables take the subinterfaces' arguments,
// while each method keeps the descriptor Java dispatches on (checked against javap).
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import type { ServiceDefinition } from "../../src/core/index.js";
import { contractSignatures, gen, typeCheckUse } from "./gen-kit.js";
import { buildApiJar, javapMethods, scratchDir } from "./java-api.js";

test("gen - a generic superinterface's type variables take the arguments its subinterfaces give", async () => {
  const dir = scratchDir("gen-generic-super");
  const jar = buildApiJar(dir, "repo");
  const out = join(dir, "out");
  const { file, text } = await gen(out, jar, "--interface", "com.foo.repo.OrderService");
  // BaseService<T, ID> through PagedService<E> extends BaseService<E, Long>, OrderService extends
  // PagedService<Order>: T is an Order and ID a Long; a bare T or ID keeps its erasure's descriptor.
  const erasedOrder = '{ ...Order, descriptor: "Ljava/lang/Object;" }';
  const erasedLong = '{ ...java.Long, descriptor: "Ljava/lang/Object;" }';
  for (const entry of [
    "  latest: { args: [], returns: Order },",
    "  page: { args: (from = java.int, size = java.int) => [from, size], returns: java.List(Order) },",
    `  find: { args: (id = ${erasedLong}) => [id], returns: ${erasedOrder} },`,
    '  findAll: { args: (ids = java.List(java.Long, "java.util.Collection")) => [ids], returns: java.List(Order) },',
    "  index: { args: [], returns: java.Map(java.Long, Order) },",
    `  save: { args: (entity = ${erasedOrder}) => [entity], returns: java.void },`,
  ]) {
    assert.ok(text.includes(entry), `${entry}\n${text}`);
  }

  const contracts = (await import(pathToFileURL(file).href)) as Record<string, ServiceDefinition>;
  const classes = join(dir, "repo-classes");
  assert.deepEqual(
    contractSignatures(contracts.OrderService!),
    ["OrderService", "PagedService", "BaseService"]
      .flatMap((c) => javapMethods(classes, `com.foo.repo.${c}`))
      .sort(),
    "the descriptors Java dispatches on, inherited methods included",
  );

  typeCheckUse(
    dir,
    out,
    file,
    `import { type Order, OrderService } from "./contracts.js";
export async function use(stub: ServiceStub<typeof OrderService.methods>): Promise<string> {
  const order: Order = await stub.find(7);
  const byId: Map<number, Order> = await stub.index();
  const all: Order[] = await stub.findAll([1, 2]);
  await stub.save(order);
  // @ts-expect-error the id is a Long, not a string
  await stub.find("7");
  return \`\${order.item} \${byId.size} \${all.length}\`;
}
`,
  );
});
