import { Code, RpcError } from "../core/index.js";
import {
  SSL_CA_PATH_KEY,
  SSL_CERT_PATH_KEY,
  SSL_CLIENT_AUTH_KEY,
  SSL_ENABLED_KEY,
  SSL_KEY_PATH_KEY,
  SSL_REJECT_UNAUTHORIZED_KEY,
  SSL_SERVER_NAME_KEY,
} from "../protocol/shared/tls-settings.js";
import { invalidSetting, isRecord, joinPath } from "./errors.js";
import { booleanField, type FieldSpec, type FieldTable, readFields, textField } from "./fields.js";

/**
 * TLS for the services a protocol serves (Java 2.7 `ProtocolConfig.sslEnabled`; the files are
 * Java 3.x's `dubbo.ssl.server-*` settings). PEM files, read when the first service is exported.
 */
export interface ProtocolSslConfig {
  /** PEM certificate chain the server presents. Java `dubbo.ssl.server-key-cert-chain-path`. */
  certPath: string;
  /** PEM private key of `certPath`. Java `dubbo.ssl.server-private-key-path`. */
  keyPath: string;
  /** PEM CA bundle that signs client certificates. Java `dubbo.ssl.server-trust-cert-collection-path`. */
  caPath?: string;
  /** Require a client certificate signed by `caPath` (mutual TLS). Default: true when `caPath` is set. */
  clientAuth?: boolean;
}

/**
 * TLS for a consumer's connections (Java 3.x `dubbo.ssl.client-*`). Giving it (even `{}`) makes
 * every connection of the reference TLS; a provider that registered `ssl-enabled=true` gets TLS
 * without it, trusting Node's bundled CAs.
 */
export interface ReferenceSslConfig {
  /** PEM CA bundle trusted for server certificates. Default: Node's bundled CAs. Java `dubbo.ssl.client-trust-cert-collection-path`. */
  caPath?: string;
  /** PEM client certificate chain, for providers that require one. Java `dubbo.ssl.client-key-cert-chain-path`. */
  certPath?: string;
  /** PEM private key of `certPath`. Java `dubbo.ssl.client-private-key-path`. */
  keyPath?: string;
  /** Name sent as SNI and checked against the server certificate. Default: the provider's host. */
  serverName?: string;
  /** `false` accepts a server certificate no trusted CA signed (testing only). Default true. */
  rejectUnauthorized?: boolean;
}

/** A local file path; it rides a URL parameter, so it may not hold a URL separator. */
const pathField = (): FieldSpec<string> => {
  const text = textField();
  return {
    read(value, path, fromText) {
      const file = text.read(value, path, fromText);
      if (/[&=;]/.test(file)) throw invalidSetting(path, value, "a file path without '&', '=' or ';'");
      return file;
    },
  };
};

const PROTOCOL_SSL_FIELDS: FieldTable<ProtocolSslConfig> = {
  certPath: pathField(),
  keyPath: pathField(),
  caPath: pathField(),
  clientAuth: booleanField(),
};

const REFERENCE_SSL_FIELDS: FieldTable<ReferenceSslConfig> = {
  caPath: pathField(),
  certPath: pathField(),
  keyPath: pathField(),
  serverName: textField(),
  rejectUnauthorized: booleanField(),
};

function missingPath(path: string, missing: string, who: string): RpcError {
  return new RpcError(
    `missing setting ${joinPath(path, missing)}: ${who} needs both certPath and keyPath (paths of PEM files)`,
    Code.InvalidArgument,
  );
}

const isFalse = (value: unknown, fromText: boolean): boolean =>
  value === false || (fromText && typeof value === "string" && value.trim().toLowerCase() === "false");

/** `protocols.<id>.ssl`: `false` or `{ certPath, keyPath, caPath?, clientAuth? }`. */
export const protocolSslField: FieldSpec<ProtocolSslConfig | false> = {
  read(value, path, fromText) {
    if (isFalse(value, fromText)) return false;
    const expected = "false or a mapping with certPath and keyPath (and caPath, clientAuth for mutual TLS)";
    if (!isRecord(value)) throw invalidSetting(path, value, expected);
    const given = readFields(PROTOCOL_SSL_FIELDS, value, path, { fromText });
    if (given.certPath === undefined || given.keyPath === undefined) {
      throw missingPath(path, given.certPath === undefined ? "certPath" : "keyPath", "a TLS server");
    }
    if (given.clientAuth === true && given.caPath === undefined) {
      throw invalidSetting(
        `${path}.clientAuth`,
        true,
        "false unless caPath names the CA of client certificates",
      );
    }
    return Object.freeze({ ...given, certPath: given.certPath, keyPath: given.keyPath });
  },
};

/** `consumer.ssl` / `references.<id>.ssl`: `false`, `true` (= `{}`), or the mapping. */
export const referenceSslField: FieldSpec<ReferenceSslConfig | boolean> = {
  read(value, path, fromText) {
    if (isFalse(value, fromText)) return false;
    if (value === true || (fromText && typeof value === "string" && value.trim().toLowerCase() === "true")) {
      return Object.freeze({});
    }
    const expected = "true, false or a mapping of caPath, certPath, keyPath, serverName, rejectUnauthorized";
    if (!isRecord(value)) throw invalidSetting(path, value, expected);
    const given = readFields(REFERENCE_SSL_FIELDS, value, path, { fromText });
    if ((given.certPath === undefined) !== (given.keyPath === undefined)) {
      throw missingPath(path, given.certPath === undefined ? "certPath" : "keyPath", "a client certificate");
    }
    return Object.freeze(given);
  },
};

/**
 * The provider URL parameters of a protocol's `ssl`: `ssl-enabled=true`, which registries publish
 * (Java's key), and the file paths as hidden `.ssl.*` keys, which they never do.
 */
export function protocolSslParams(ssl: ProtocolSslConfig | false | undefined): Record<string, string> {
  if (ssl === undefined || ssl === false) return {};
  return {
    [SSL_ENABLED_KEY]: "true",
    [SSL_CERT_PATH_KEY]: ssl.certPath,
    [SSL_KEY_PATH_KEY]: ssl.keyPath,
    ...(ssl.caPath === undefined ? {} : { [SSL_CA_PATH_KEY]: ssl.caPath }),
    ...(ssl.clientAuth === undefined ? {} : { [SSL_CLIENT_AUTH_KEY]: String(ssl.clientAuth) }),
  };
}

/**
 * The consumer URL parameters of a reference's `ssl`: `ssl-enabled=true` (TLS to every provider)
 * and hidden `.ssl.*` keys. `false` adds nothing, so a provider's registered `ssl-enabled` still applies.
 */
export function referenceSslParams(ssl: ReferenceSslConfig | boolean | undefined): Record<string, string> {
  if (ssl === undefined || ssl === false) return {};
  const params: Record<string, string> = { [SSL_ENABLED_KEY]: "true" };
  if (ssl === true) return params;
  if (ssl.caPath !== undefined) params[SSL_CA_PATH_KEY] = ssl.caPath;
  if (ssl.certPath !== undefined) params[SSL_CERT_PATH_KEY] = ssl.certPath;
  if (ssl.keyPath !== undefined) params[SSL_KEY_PATH_KEY] = ssl.keyPath;
  if (ssl.serverName !== undefined) params[SSL_SERVER_NAME_KEY] = ssl.serverName;
  if (ssl.rejectUnauthorized !== undefined) {
    params[SSL_REJECT_UNAUTHORIZED_KEY] = String(ssl.rejectUnauthorized);
  }
  return params;
}
