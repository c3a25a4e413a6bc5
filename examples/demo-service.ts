import { defineService, java } from "dubbo-ts";

/** The contract the examples share: Java Dubbo's own demo interface. */
export const DemoService = defineService("org.apache.dubbo.demo.DemoService", {
  sayHello: { args: [java.String], returns: java.String },
});
