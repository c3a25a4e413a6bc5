// How defineProtoService names an IDL service: the Java interface it registers and subscribes
// under is the one Dubbo's protoc plugin (dubbo-compiler 3.3.5's Dubbo3TripleGenerator) generates,
// `{java_package}.{Service}` or, without a java_package, the proto's `package.Service`; the path
// (`idl.path`, the exported URL's path and a direct `url=`'s default) is always `package.Service`.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { create, createFileRegistry, type DescService, type MessageInitShape } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema, type FileOptionsSchema } from "@bufbuild/protobuf/wkt";
import {
  resolveApplication,
  resolveProtocol,
  resolveReference,
  resolveService,
  toServiceUrl,
} from "../../src/config/index.js";
import { defineProtoService } from "../../src/index.js";
import { Greeter as JavaPackageGreeter } from "./gen/greeter_java_package_pb.js";
import { Greeter } from "./gen/greeter_pb.js";

/** Service `Pinger` in a file of `pkg` with these file options, as protoc would describe it. */
function pinger(pkg: string, options?: MessageInitShape<typeof FileOptionsSchema>): DescService {
  const ping = pkg === "" ? ".Ping" : `.${pkg}.Ping`;
  const file = create(FileDescriptorProtoSchema, {
    name: "pinger.proto",
    package: pkg,
    syntax: "proto3",
    ...(options === undefined ? {} : { options }),
    messageType: [{ name: "Ping" }],
    service: [{ name: "Pinger", method: [{ name: "Ping", inputType: ping, outputType: ping }] }],
  });
  return createFileRegistry(file, () => undefined).getService(pkg === "" ? "Pinger" : `${pkg}.Pinger`)!;
}

function names(service: DescService, options?: { interface?: string }): [string, string | undefined] {
  const { definition } = defineProtoService(service, options);
  return [definition.interfaceName, definition.idl.path];
}

describe("defineProtoService naming", () => {
  test("without java_package the interface and the path are the proto's package.Service", () => {
    assert.deepEqual(names(Greeter), ["dubbo.tri.test.Greeter", "dubbo.tri.test.Greeter"]);
    assert.deepEqual(names(pinger("com.acme.ping")), ["com.acme.ping.Pinger", "com.acme.ping.Pinger"]);
    // No package at all: dubbo-compiler writes the interface into Java's default package.
    assert.deepEqual(names(pinger("")), ["Pinger", "Pinger"]);
  });

  test("with java_package the interface is {java_package}.{Service}, as dubbo-compiler names it; the path stays", () => {
    assert.deepEqual(names(JavaPackageGreeter), ["dubbo.tri.test.Greeter", "greet.v1.Greeter"]);
    assert.deepEqual(names(pinger("ping.v1", { javaPackage: "com.acme.ping" })), [
      "com.acme.ping.Pinger",
      "ping.v1.Pinger",
    ]);
    // An empty java_package is no java_package (dubbo-compiler falls back to the proto package).
    assert.deepEqual(names(pinger("ping.v1", { javaPackage: "" })), ["ping.v1.Pinger", "ping.v1.Pinger"]);
  });

  test("java_multiple_files and java_outer_classname move only the messages, not the interface", () => {
    const service = pinger("ping.v1", {
      javaPackage: "com.acme.ping",
      javaMultipleFiles: true,
      javaOuterClassname: "PingProto",
    });
    assert.deepEqual(names(service), ["com.acme.ping.Pinger", "ping.v1.Pinger"]);
  });

  test("an explicit interface wins over the generated name and keeps the path", () => {
    assert.deepEqual(names(JavaPackageGreeter, { interface: "com.foo.HandWrittenGreeter" }), [
      "com.foo.HandWrittenGreeter",
      "greet.v1.Greeter",
    ]);
    assert.throws(
      () => defineProtoService(JavaPackageGreeter, { interface: "com.foo/Greeter" }),
      (error: unknown) =>
        error instanceof TypeError &&
        /interface "com\.foo\/Greeter" is not a Java interface name.*leave it out for dubbo\.tri\.test\.Greeter/.test(
          error.message,
        ),
    );
  });

  test("the exported URL has the proto path and the Java interface; a direct url= calls the proto path", () => {
    const GreeterService = defineProtoService(JavaPackageGreeter);
    const url = toServiceUrl(
      resolveService({ definition: GreeterService.definition }),
      resolveProtocol({ name: "tri", host: "10.0.0.5", port: 50051 }),
      resolveApplication({ name: "naming" }),
    );
    assert.equal(url.path, "greet.v1.Greeter");
    assert.equal(url.get("interface"), "dubbo.tri.test.Greeter");
    const reference = resolveReference({
      definition: GreeterService.definition,
      url: "tri://10.0.0.5:50051;tri://10.0.0.6:50051/other.Path",
    });
    assert.equal(reference.interface, "dubbo.tri.test.Greeter");
    assert.deepEqual(
      reference.urls.map((u) => u.path),
      ["greet.v1.Greeter", "other.Path"],
    );
  });
});
