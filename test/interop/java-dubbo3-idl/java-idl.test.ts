// Triple IDL interop with real Java Dubbo 3.3.6 whose Greeter is a hand-written Java interface with
// protobuf-java messages (java/dubbo/tri/test/Greeter.java): the suite of greeter-suite.ts.
import { javaGreeterSuite } from "./greeter-suite.js";

javaGreeterSuite("interface");
