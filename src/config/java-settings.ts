// Facts about Java Dubbo's configuration (2.7.23 and 3.3.x config classes): the property names a
// Spring Boot `dubbo:` YAML may carry per section. The ones dubbo-ts has no equivalent for are
// ignored with a warning instead of failing; anything else unknown is a mistake and fails.

const METHOD = "actives async cache forks loadbalance merger mock parameters retries sent timeout validation";
const INTERFACE =
  "auth callbacks cluster connections filter group interface layer listener local onconnect ondisconnect owner proxy registry registryIds scope singleton stub tag version";
const SERVICE_BASE =
  "accesslog delay deprecated document dynamic executes executor export exportAsync payload preferSerialization protocol protocolIds register serialization token useJavaPackageAsPath warmup weight";
const REFERENCE_BASE =
  "check client generic init injvm lazy providedBy providerNamespace providerPort reconnect referAsync router serialization sticky";
const TRANSPORT =
  "accepts alive buffer charset client codec contextpath corethreads dispatcher dispather exchanger host iothreads networker path payload port prompt queues server status telnet threadname threadpool threads transporter";

/** Java's property names per section of the `dubbo:` tree. */
export const JAVA_SETTINGS: Readonly<Record<string, string>> = {
  application:
    "architecture autoTrustSerializeClass checkSerializable compiler dumpDirectory dumpEnable enableEmptyProtection enableFileCache environment executorManagementMode livenessProbe logger mappingRetryInterval metadataServicePort metadataServiceProtocol metadataType monitor name organization owner parameters protocol publishInterface qosAcceptForeignIp qosAcceptForeignIpWhitelist qosAnonymousAccessPermissionLevel qosAnonymousAllowCommands qosCheck qosEnable qosHost qosPort readinessProbe registerConsumer registerMode registry registryIds repository serializeCheckStatus shutwait startupProbe trustSerializeClassLevel version",
  registry:
    "accepts address check client cluster dynamic enableEmptyProtection extraKeys file group parameters password port preferred protocol register registerMode secure server session simplified subscribe timeout transport transporter useAsConfigCenter useAsMetadataCenter username version wait weight zone",
  protocol: `${TRANSPORT} accesslog extProtocol extension heartbeat jsonCheckLevel keepAlive name noInterfaceSupport optimizer parameters preferSerialization preferredProtocol register serialization sslEnabled threadPoolExhaustedListeners triple`,
  provider: `${METHOD} ${INTERFACE} ${SERVICE_BASE} ${TRANSPORT} exportBackground exportThreadNum wait`,
  consumer: `${METHOD} ${INTERFACE} ${REFERENCE_BASE} corethreads meshEnable queues referBackground referThreadNum shareconnections threadpool threads urlMergeProcessor`,
  service: `${METHOD} ${INTERFACE} ${SERVICE_BASE} generic path providerIds`,
  reference: `${METHOD} ${INTERFACE} ${REFERENCE_BASE} url`,
  method: `${METHOD} arguments deprecated executes name oninvoke onreturn onthrow reliable retry return service serviceId stat sticky`,
};

/** Java's top-level sections that configure what dubbo-ts does not have. */
export const JAVA_ONLY_SECTIONS =
  "applications config configCenter configCenters consumers labels metadataReport metadataReports metrics module modules monitor monitors providers scan ssl tracing";

/** Java names dubbo-ts spells differently. */
export const JAVA_RENAMES: Readonly<Record<string, string>> = {
  registryIds: "registries",
  protocolIds: "protocols",
};
