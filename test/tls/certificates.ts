// Throwaway TLS material for tests, made by the `openssl` CLI in a fresh temp directory: a CA, a
// server certificate for 127.0.0.1/localhost and a client certificate, all signed by the CA, plus a
// second CA nothing is signed by. Short-lived (1 day) P-256 keys; remove the directory afterwards.
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TestCertificates {
  readonly dir: string;
  readonly caPath: string;
  readonly serverCertPath: string;
  readonly serverKeyPath: string;
  readonly clientCertPath: string;
  readonly clientKeyPath: string;
  /** A CA that signed nothing here: trusting only it must fail verification. */
  readonly otherCaPath: string;
  remove(): Promise<void>;
}

function openssl(dir: string, args: readonly string[]): void {
  execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"], timeout: 30_000 });
}

function selfSignedCa(dir: string, name: string, cn: string): void {
  openssl(dir, [
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-keyout",
    `${name}.key`,
    "-out",
    `${name}.pem`,
    "-days",
    "1",
    "-subj",
    `/CN=${cn}`,
  ]);
}

async function signedLeaf(dir: string, name: string, cn: string, extensions: string): Promise<void> {
  await writeFile(join(dir, `${name}.ext`), extensions);
  openssl(dir, [
    "req",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-keyout",
    `${name}.key`,
    "-out",
    `${name}.csr`,
    "-subj",
    `/CN=${cn}`,
  ]);
  openssl(dir, [
    "x509",
    "-req",
    "-in",
    `${name}.csr`,
    "-CA",
    "ca.pem",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-out",
    `${name}.pem`,
    "-days",
    "1",
    "-extfile",
    `${name}.ext`,
  ]);
}

export async function createTestCertificates(): Promise<TestCertificates> {
  const dir = await mkdtemp(join(tmpdir(), "dubbo-ts-tls-"));
  try {
    selfSignedCa(dir, "ca", "dubbo-ts test CA");
    selfSignedCa(dir, "other-ca", "dubbo-ts unrelated CA");
    await signedLeaf(
      dir,
      "server",
      "localhost",
      "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n",
    );
    await signedLeaf(dir, "client", "dubbo-ts test client", "extendedKeyUsage=clientAuth\n");
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    dir,
    caPath: join(dir, "ca.pem"),
    serverCertPath: join(dir, "server.pem"),
    serverKeyPath: join(dir, "server.key"),
    clientCertPath: join(dir, "client.pem"),
    clientKeyPath: join(dir, "client.key"),
    otherCaPath: join(dir, "other-ca.pem"),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
