import { Code, DEFAULT_ENVIRONMENT, RpcError } from "../core/index.js";
import { readRecord } from "./errors.js";
import {
  booleanField,
  choiceField,
  type FieldTable,
  type Given,
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
  /** Extra URL parameters for every URL of the application. */
  parameters?: Readonly<Record<string, string>>;
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
  readonly parameters: Readonly<Record<string, string>>;
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
  parameters: parametersField(),
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
    shutdownHook: true,
    ...given,
    name: given.name,
    given,
  });
}
