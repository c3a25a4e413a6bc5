/** The Maven project names under test/interop/java-dubbo-real/maven/ (`dubbo-2.7`, `dubbo-3.3`). */
export function javaDubboProjects(): string[];
/** Where the jars of one project live: ~/.cache/dubbo-ts/java-dubbo/<project>-<pom hash>/lib. */
export function javaDubboLibDir(project: string): string;
/** True when the project's jars are in the cache. */
export function javaDubboFetched(project: string): boolean;
/** Fetches one project's jars unless cached; returns the lib directory. */
export function fetchJavaDubbo(project: string): string;
/** Every jar of a fetched project; throws naming the command when it is not fetched. */
export function javaDubboClasspath(project: string): string[];
/** The protoc executable of the fetched `protoc-3.25` project; throws naming the command when it is not fetched. */
export function javaProtoc(): string;
/** The launcher of Dubbo's protoc plugin (`dubbo-compiler-3.3`), for `--plugin=protoc-gen-dubbo=`; throws naming the command when it is not fetched. */
export function javaDubboProtocPlugin(): string;
/** Fetches every project that is missing. */
export function ensureJavaDubbo(): void;
