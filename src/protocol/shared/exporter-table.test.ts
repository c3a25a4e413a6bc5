import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Invoker, Url } from "../../core/index.js";
import { type ExportedService, ExporterTable } from "./exporter-table.js";

/** A service exported under `path` with the Java interface `dubbo.tri.test.Greeter`. */
function exported(path: string): ExportedService {
  const url = Url.parse(`tri://127.0.0.1:50051/${path}?interface=dubbo.tri.test.Greeter&version=1.0`);
  return { key: `${path}:1.0`, path, url, invoker: {} as Invoker, methods: new Map() };
}

const INTERFACE_KEY = "dubbo.tri.test.Greeter:1.0";

describe("exporter table", () => {
  it("two paths of one interface: the earliest still exported answers its interface's name", () => {
    const table = new ExporterTable();
    const first = exported("greet.v1.Greeter");
    const second = exported("greet.v2.Greeter");
    table.add(first);
    table.add(second);
    assert.equal(table.findByInterface(INTERFACE_KEY), first);
    table.remove(second);
    assert.equal(table.findByInterface(INTERFACE_KEY), first, "removing the later one keeps the first");
    table.add(second);
    table.remove(first);
    assert.equal(table.findByInterface(INTERFACE_KEY), second, "the other one still answers");
    table.remove(second);
    assert.equal(table.findByInterface(INTERFACE_KEY), undefined);
    assert.equal(table.find("greet.v2.Greeter:1.0"), undefined);
  });
});
