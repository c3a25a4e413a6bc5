// The real peers the suite runs against come from Debian's packages. Install what is missing when we
// are root (as in CI); otherwise say exactly what to install.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

export const SYSTEM_PACKAGES = [
  { name: "libhessian-java", probe: "/usr/share/java/hessian.jar", why: "Java Hessian conformance tests" },
  { name: "zookeeper", probe: "/usr/share/zookeeper/bin/zkServer.sh", why: "ZooKeeper registry tests" },
  { name: "maven", probe: "/usr/bin/mvn", why: "fetching real Java Dubbo for the interop tests" },
  { name: "chromium", probe: "/usr/bin/chromium", why: "the web console's test in a headless browser" },
  {
    name: "iproute2",
    probe: "/usr/bin/ss",
    why: "`ss`, which reads a listening socket's backlog in the protocol tests",
  },
];

export function ensureSystemPackages() {
  const missing = SYSTEM_PACKAGES.filter((p) => !existsSync(p.probe));
  if (missing.length === 0) return;
  const names = missing.map((p) => p.name);
  if (process.getuid?.() !== 0) {
    const list = missing.map((p) => `  ${p.name} (${p.why})`).join("\n");
    process.stderr.write(
      `The test suite needs these Debian packages, and only root can install them:\n${list}\n` +
        `Run: sudo apt-get install -y ${names.join(" ")}\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`\n▶ installing ${names.join(", ")} with apt-get\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const update = spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  const install = spawnSync("apt-get", ["install", "-y", "-qq", ...names], { stdio: "inherit", env });
  if (update.status !== 0 || install.status !== 0) {
    process.stderr.write(
      `apt-get could not install ${names.join(" ")}; install them and run npm test again\n`,
    );
    process.exit(1);
  }
}
