// Triple IDL interop with real Java Dubbo 3.3.6 on the stubs its own protoc plugin (dubbo-compiler
// from Maven Central) generates from test/triple/proto/greeter_java_package.proto, whose
// java_package makes the Java interface (dubbo.tri.test.Greeter, what registries see) differ from
// the path (greet.v1.Greeter): the Java provider extends DubboGreeterTriple.GreeterImplBase
// (java/ beside this file), the Java consumer calls the generated stub. The suite of
// java-dubbo3-idl/greeter-suite.ts.
import { javaGreeterSuite } from "../java-dubbo3-idl/greeter-suite.js";

javaGreeterSuite("stubs");
