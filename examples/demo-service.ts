import { defineService, java } from "../src/index.js";

/** The contract the examples share: Java Dubbo's own demo interface. */
export const DemoService = defineService("org.apache.dubbo.demo.DemoService", {
  sayHello: { args: [java.String], returns: java.String },
});
