import {
  Code,
  DEFAULT_ENVIRONMENT,
  DEFAULT_QOS_ACCEPT_FOREIGN_IP,
  DEFAULT_QOS_ENABLE,
  DEFAULT_QOS_PORT,
  RpcError,
} from "../core/index.js";
import { readRecord } from "./errors.js";
import {
  booleanField,
  choiceField,
  type FieldTable,
  type Given,
  integerField,
  parametersField,
  readFields,
  textField,
} from "./fields.js";

export type ApplicationEnvironment = "develop" | "test" | "product";

/** The application (Java `ApplicationConfig`, `dubbo.application.*`); every URL carries its name. */
export interface ApplicationConfig {
  /** Required. The application's name, e.g. "demo-provider". URL key `application`. Java `dubbo.application.name`. */
  name?: string;
  /** The application's own version. No default. URL key `application.version`. */
  version?: string;
  /** Person or team responsible. No default. URL key `owner`. */
  owner?: string;
  /** Organization or business unit. No default. URL key `organization`. */
  organization?: string;
  /** Deployment environment: develop, test or product. Default "product". URL key `environment`. */
  environment?: ApplicationEnvironment;
  /**
   * Dubbo 3: where providers register: "interface" (`/dubbo/{interface}/providers`), "instance"
   * (application-level, `/services/{application}`) or "all" (both). Default "all", as Java 3.
   * A registry's own `registerMode` wins. URL key `register-mode`. Java `dubbo.application.register-mode`.
   */
  registerMode?: "all" | "interface" | "instance";
  /**
   * Dubbo 3: where the application's metadata is read from: "local" (its metadata service) or
   * "remote" (`/dubbo/metadata/{application}/{revision}` in ZooKeeper). Default "local".
   * URL key `metadata-type`. Java `dubbo.application.metadata-type`.
   */
  metadataType?: "local" | "remote";
  /** Extra URL parameters for every URL of the application. */
  parameters?: Readonly<Record<string, string>>;
  /** Run the QoS port (admin commands, probes, `/metrics`) once `app.start()` is done. Default true. Java `qos-enable`. */
  qosEnable?: boolean;
  /** The QoS port; 0 picks a free one. Default 22222. Java `qos-port`. */
  qosPort?: number;
  /** Listen on every interface instead of 127.0.0.1 only. Default false. Java `qos-accept-foreign-ip`. */
  qosAcceptForeignIp?: boolean;
  /**
   * Stop gracefully on SIGTERM and SIGINT, as Java's shutdown hook does. Default true; false leaves
   * the signals alone (Java's `dubbo.shutdownHook.listenIgnore: true`). Never a URL parameter.
   */
  shutdownHook?: boolean;
}

export interface ResolvedApplicationConfig {
  readonly name: string;
  readonly version?: string;
  readonly owner?: string;
  readonly organization?: string;
  readonly environment: ApplicationEnvironment;
  readonly registerMode?: "all" | "interface" | "instance";
  readonly metadataType?: "local" | "remote";
  readonly parameters: Readonly<Record<string, string>>;
  readonly qosEnable: boolean;
  readonly qosPort: number;
  readonly qosAcceptForeignIp: boolean;
  readonly shutdownHook: boolean;
  /** What was set explicitly; only these become URL parameters. */
  readonly given: Given<ApplicationConfig>;
}

export const APPLICATION_FIELDS: FieldTable<ApplicationConfig> = {
  name: textField({ urlKey: "application" }),
  version: textField({ urlKey: "application.version", numbersAsText: true }),
  owner: textField({ urlKey: "owner" }),
  organization: textField({ urlKey: "organization" }),
  environment: choiceField(["develop", "test", "product"], { urlKey: "environment" }),
  registerMode: choiceField(["all", "interface", "instance"], { urlKey: "register-mode" }),
  metadataType: choiceField(["local", "remote"], { urlKey: "metadata-type" }),
  parameters: parametersField(),
  qosEnable: booleanField(),
  qosPort: integerField(0, 65535, "port"),
  qosAcceptForeignIp: booleanField(),
  shutdownHook: booleanField(),
};

export function readApplication(input: unknown, path: string, fromText = false): Given<ApplicationConfig> {
  return readFields(APPLICATION_FIELDS, readRecord(input, path), path, { fromText });
}

/**
 * Resolves the application settings into a new frozen object.
 * @throws RpcError (InvalidArgument) when the name is missing or a setting is invalid.
 */
export function resolveApplication(
  options: ApplicationConfig,
  path = "application",
): ResolvedApplicationConfig {
  const given = Object.freeze(readApplication(options, path));
  if (given.name === undefined) {
    throw new RpcError(
      `${path}.name is required: name the application (e.g. "demo-provider") in code, as application.name in dubbo.yaml, or with DUBBO_APPLICATION_NAME`,
      Code.InvalidArgument,
    );
  }
  return Object.freeze({
    environment: DEFAULT_ENVIRONMENT,
    parameters: Object.freeze({}),
    qosEnable: DEFAULT_QOS_ENABLE,
    qosPort: DEFAULT_QOS_PORT,
    qosAcceptForeignIp: DEFAULT_QOS_ACCEPT_FOREIGN_IP,
    shutdownHook: true,
    ...given,
    name: given.name,
    given,
  });
}
