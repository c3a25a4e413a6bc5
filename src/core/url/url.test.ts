import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Url } from "./url.js";

const JAVA_PROVIDER =
  "dubbo://192.168.0.102:20881/com.foo.DemoService?anyhost=true&application=demo&deprecated=false&dubbo=2.0.2&dynamic=true&generic=false&interface=com.foo.DemoService&methods=sayHello,sayHelloAsync&pid=17134&release=2.7.3&side=provider&timestamp=1564826098503&version=1.0.0";

describe("Url", () => {
  it("parse - round-trips a Java 2.7 provider URL", () => {
    const url = Url.parse(JAVA_PROVIDER);
    assert.equal(url.protocol, "dubbo");
    assert.equal(url.host, "192.168.0.102");
    assert.equal(url.port, 20881);
    assert.equal(url.path, "com.foo.DemoService");
    assert.equal(url.get("methods"), "sayHello,sayHelloAsync");
    assert.equal(url.toString(), JAVA_PROVIDER);
    assert.equal(url.serviceKey, "com.foo.DemoService:1.0.0");
  });

  it("encode - matches Java URLEncoder for the ZooKeeper node name", () => {
    const url = Url.parse(JAVA_PROVIDER);
    assert.equal(
      url.encode(),
      "dubbo%3A%2F%2F192.168.0.102%3A20881%2Fcom.foo.DemoService%3Fanyhost%3Dtrue%26application%3Ddemo%26deprecated%3Dfalse%26dubbo%3D2.0.2%26dynamic%3Dtrue%26generic%3Dfalse%26interface%3Dcom.foo.DemoService%26methods%3DsayHello%2CsayHelloAsync%26pid%3D17134%26release%3D2.7.3%26side%3Dprovider%26timestamp%3D1564826098503%26version%3D1.0.0",
    );
    assert.equal(Url.decode(url.encode()).toString(), JAVA_PROVIDER);
  });
});
