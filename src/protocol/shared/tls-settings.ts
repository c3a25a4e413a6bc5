import { readFile } from "node:fs/promises";
import { type ConnectionOptions, createSecureContext, type SecureContext, type TlsOptions } from "node:tls";
import { Code, DEFAULT_SSL_ENABLED, RpcError, type Url } from "../../core/index.js";

/**
 * Java's `ssl-enabled` (`CommonConstants.SSL_ENABLED_KEY`, from `ProtocolConfig.sslEnabled`). On a
 * provider URL it is registered, so consumers learn the provider speaks TLS; on a consumer URL it
 * asks for TLS to every provider of the reference.
 */
export const SSL_ENABLED_KEY = "ssl-enabled";

// Local file paths and client choices. Hidden (`.`-prefixed) keys, which registries never publish
// (Java strips hidden keys in `RegistryProtocol.getUrlToRegistry`); each side reads its own.
/** PEM certificate chain: the server's (provider) or the client certificate (consumer, mutual TLS). */
export const SSL_CERT_PATH_KEY = ".ssl.cert-path";
/** PEM private key of that certificate. */
export const SSL_KEY_PATH_KEY = ".ssl.key-path";
/** PEM CA bundle: trusted for client certificates (provider) or for the server's (consumer). */
export const SSL_CA_PATH_KEY = ".ssl.ca-path";
/** Provider: require and verify a client certificate. */
export const SSL_CLIENT_AUTH_KEY = ".ssl.client-auth";
/** Consumer: the name sent as SNI and checked against the server certificate. */
export const SSL_SERVER_NAME_KEY = ".ssl.server-name";
/** Consumer: `false` accepts a server certificate no trusted CA signed. */
export const SSL_REJECT_UNAUTHORIZED_KEY = ".ssl.reject-unauthorized";

/** A TLS server's PEM files (the protocol's `ssl` setting, or `createProtoServer`'s `ssl`). */
export interface ServerTlsFiles {
  /** Certificate chain the server presents. */
  readonly certPath: string;
  /** Private key of `certPath`. */
  readonly keyPath: string;
  /** CA bundle that signs client certificates. */
  readonly caPath?: string | undefined;
  /** Require a client certificate signed by `caPath` (mutual TLS). Default: true when `caPath` is set. */
  readonly clientAuth?: boolean | undefined;
}

/** A TLS client's choices (a reference's `ssl` setting, or `createProtoClient`'s `ssl`). */
export interface ClientTlsFiles {
  /** CA bundle trusted for server certificates. Default: Node's bundled CAs. */
  readonly caPath?: string | undefined;
  /** Client certificate chain, for servers that require one. */
  readonly certPath?: string | undefined;
  /** Private key of `certPath`. */
  readonly keyPath?: string | undefined;
  /** Name sent as SNI and checked against the server certificate. Default: the server's host. */
  readonly serverName?: string | undefined;
  /** `false` accepts a server certificate no trusted CA signed (testing only). Default true. */
  readonly rejectUnauthorized?: boolean | undefined;
}

type PemFile = "certPath" | "keyPath" | "caPath";

export function isSslEnabled(url: Url): boolean {
  return url.boolean(SSL_ENABLED_KEY, DEFAULT_SSL_ENABLED);
}

/**
 * What makes two TLS setups the same, or `undefined` for plain TCP: a server's identity, or the
 * key under which client links may be shared (a TLS and a plain reference never share a link).
 */
export function tlsProfile(url: Url): string | undefined {
  if (!isSslEnabled(url)) return undefined;
  return JSON.stringify([
    url.get(SSL_CERT_PATH_KEY) ?? "",
    url.get(SSL_KEY_PATH_KEY) ?? "",
    url.get(SSL_CA_PATH_KEY) ?? "",
    url.get(SSL_CLIENT_AUTH_KEY) ?? "",
    url.get(SSL_SERVER_NAME_KEY) ?? "",
    url.get(SSL_REJECT_UNAUTHORIZED_KEY) ?? "",
  ]);
}

function failure(action: string, problem: string, cause?: unknown): RpcError {
  return new RpcError(
    `cannot ${action}: ${problem}`,
    Code.FailedPrecondition,
    cause === undefined ? undefined : { cause },
  );
}

async function readPem(
  path: string | undefined,
  setting: PemFile,
  what: string,
  action: string,
): Promise<Buffer | undefined> {
  if (path === undefined || path === "") return undefined;
  try {
    return await readFile(path);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw failure(action, `cannot read the ${what} file "${path}" (${reason}; set ssl.${setting})`, error);
  }
}

/** Parses the PEM material once, so a bad or mismatched file fails here and not at the first handshake. */
function secureContextOf(
  material: { cert?: Buffer; key?: Buffer; ca?: Buffer },
  files: Partial<Record<PemFile, string | undefined>>,
  action: string,
): SecureContext {
  try {
    return createSecureContext(material);
  } catch (error) {
    const named = (["certPath", "keyPath", "caPath"] as const)
      .filter((setting) => files[setting] !== undefined)
      .map((setting) => `ssl.${setting} "${files[setting]}"`)
      .join(", ");
    throw failure(
      action,
      `the TLS files (${named}) are not a usable PEM certificate, key and CA: ${(error as Error).message}`,
      error,
    );
  }
}

/**
 * The node:tls server options of a provider URL with `ssl-enabled=true`, files read now; `undefined`
 * for plain TCP. `action` begins error messages ("export org.foo.Bar on dubbo://…").
 * @throws RpcError (FailedPrecondition) naming the missing or unusable file and its setting.
 */
export async function loadServerTls(url: Url, action: string): Promise<TlsOptions | undefined> {
  if (!isSslEnabled(url)) return undefined;
  const certPath = url.get(SSL_CERT_PATH_KEY);
  const keyPath = url.get(SSL_KEY_PATH_KEY);
  if (certPath === undefined || keyPath === undefined) {
    throw failure(action, "a TLS server needs a certificate and its key (set ssl.certPath and ssl.keyPath)");
  }
  const clientAuth = url.get(SSL_CLIENT_AUTH_KEY);
  return loadServerTlsFiles(
    {
      certPath,
      keyPath,
      caPath: url.get(SSL_CA_PATH_KEY),
      clientAuth: clientAuth === undefined ? undefined : url.boolean(SSL_CLIENT_AUTH_KEY, false),
    },
    action,
  );
}

/** The node:tls server options of a server's PEM files, read and parsed now. */
export async function loadServerTlsFiles(files: ServerTlsFiles, action: string): Promise<TlsOptions> {
  const [cert, key, ca] = await Promise.all([
    readPem(files.certPath, "certPath", "TLS certificate", action),
    readPem(files.keyPath, "keyPath", "TLS private key", action),
    readPem(files.caPath, "caPath", "TLS CA", action),
  ]);
  if (cert === undefined || key === undefined) {
    throw failure(action, "a TLS server needs a certificate and its key (set ssl.certPath and ssl.keyPath)");
  }
  // Java 3.x requires client certificates as soon as a trust collection is given; so do we by default.
  const clientAuth = files.clientAuth ?? ca !== undefined;
  if (clientAuth && ca === undefined) {
    throw failure(action, "ssl.clientAuth needs the CA that signs client certificates (set ssl.caPath)");
  }
  const material = { cert, key, ...(ca === undefined ? {} : { ca }) };
  secureContextOf(material, files, action);
  return { ...material, requestCert: clientAuth, rejectUnauthorized: clientAuth };
}

/**
 * The node:tls connect options of a reference URL with `ssl-enabled=true` (the consumer's `ssl`, or
 * a provider that registered it), files read now; `undefined` for plain TCP.
 * @throws RpcError (FailedPrecondition) naming the missing or unusable file and its setting.
 */
export async function loadClientTls(url: Url, action: string): Promise<ConnectionOptions | undefined> {
  if (!isSslEnabled(url)) return undefined;
  return loadClientTlsFiles(
    {
      caPath: url.get(SSL_CA_PATH_KEY),
      certPath: url.get(SSL_CERT_PATH_KEY),
      keyPath: url.get(SSL_KEY_PATH_KEY),
      serverName: url.get(SSL_SERVER_NAME_KEY),
      rejectUnauthorized: url.has(SSL_REJECT_UNAUTHORIZED_KEY)
        ? url.boolean(SSL_REJECT_UNAUTHORIZED_KEY, true)
        : undefined,
    },
    action,
  );
}

/** The node:tls connect options of a client's TLS choices, files read and parsed now. */
export async function loadClientTlsFiles(files: ClientTlsFiles, action: string): Promise<ConnectionOptions> {
  if ((files.certPath === undefined) !== (files.keyPath === undefined)) {
    throw failure(
      action,
      "a client certificate needs its key and a key its certificate (set both ssl.certPath and ssl.keyPath)",
    );
  }
  const [cert, key, ca] = await Promise.all([
    readPem(files.certPath, "certPath", "TLS client certificate", action),
    readPem(files.keyPath, "keyPath", "TLS client private key", action),
    readPem(files.caPath, "caPath", "TLS CA", action),
  ]);
  const material = {
    ...(cert === undefined ? {} : { cert }),
    ...(key === undefined ? {} : { key }),
    ...(ca === undefined ? {} : { ca }),
  };
  const { serverName, rejectUnauthorized } = files;
  return {
    // One parsed context for every link and reconnect of this setup.
    secureContext: secureContextOf(material, files, action),
    ...(serverName === undefined || serverName === "" ? {} : { servername: serverName }),
    ...(rejectUnauthorized === undefined ? {} : { rejectUnauthorized }),
  };
}
