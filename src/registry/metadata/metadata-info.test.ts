import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Url } from "../../core/index.js";
import { EMPTY_REVISION, metadataInfoOf, serviceInfoOf } from "./metadata-info.js";

// The revision below is what Java Dubbo 3.3.6's MetadataInfo.calAndGetRevision printed for these
// two URLs (test/interop/java-dubbo3-mesh checks our revision against Java's at run time too).
const URLS = [
  "dubbo://10.0.0.5:20880/org.demo.Greeter?application=demo&group=g1&version=1.2&interface=org.demo.Greeter&methods=hi,bye&pid=42&timestamp=1700000000000&bind.ip=0.0.0.0&hi.timestamp=5&Qos.Enable=false&side=provider&timeout=3000",
  "tri://10.0.0.5:50051/org.demo.Other?application=demo&interface=org.demo.Other&methods=x&side=provider&ipv6=::1",
].map((text) => Url.parse(text));

describe("application metadata (Java's MetadataInfo)", () => {
  it("the revision is Java's for the same services", () => {
    assert.equal(metadataInfoOf("demo", URLS).revision, "9d73b666f264870611d1a7898e31e2c6");
  });

  it("no services: revision 0", () => {
    assert.equal(metadataInfoOf("demo", []).revision, EMPTY_REVISION);
  });

  it("services are keyed by match key; per-process keys are left out, any case, per method too", () => {
    const info = metadataInfoOf("demo", URLS);
    assert.deepEqual(Object.keys(info.services), ["g1/org.demo.Greeter:1.2:dubbo", "org.demo.Other:tri"]);
    assert.deepEqual(Object.keys(serviceInfoOf(URLS[0] as Url).params).sort(), [
      "application",
      "group",
      "interface",
      "methods",
      "side",
      "timeout",
      "version",
    ]);
  });
});
