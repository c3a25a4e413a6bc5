/**
 * The layering gate. A folder under src/ may import only from folders of a lower rank
 * (the design's layer list, bottom first), and nothing may close a cycle.
 */
const LAYERS = [
  ["core"],
  ["serialize"],
  ["transport"],
  ["protocol"],
  ["filter"],
  ["monitor"],
  ["cluster"],
  ["registry"],
  ["proxy"],
  ["qos"],
  ["config"],
  ["app"],
  ["testing"],
  ["cli"],
];
const rank = new Map(LAYERS.flatMap((names, i) => names.map((n) => [n, i])));
const higherThan = (r) => [...rank].filter(([, i]) => i > r).map(([n]) => n);

const upwardRules = [...rank].flatMap(([name, r]) => {
  const forbidden = higherThan(r);
  if (forbidden.length === 0) return [];
  return [
    {
      name: `layer-${name}`,
      comment: `src/${name} may not import from a higher layer (${forbidden.join(", ")})`,
      severity: "error",
      from: { path: `^src/${name}/`, pathNot: "\\.test\\.ts$" },
      to: { path: `^src/(${forbidden.join("|")})/` },
    },
  ];
});

module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      comment: "an import cycle makes load order fragile and layers meaningless",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "core-has-no-dependencies",
      comment: "src/core uses Node built-ins only",
      severity: "error",
      from: { path: "^src/core/" },
      to: { dependencyTypes: ["npm", "npm-dev", "npm-optional", "npm-peer"] },
    },
    {
      name: "src-not-to-tests",
      severity: "error",
      from: { path: "^src/", pathNot: "\\.test\\.ts$" },
      to: { path: "(\\.test\\.ts$|^test/)" },
    },
    {
      name: "protocol-shared-is-neutral",
      comment: "src/protocol/shared holds what every protocol needs; it knows no protocol in particular",
      severity: "error",
      from: { path: "^src/protocol/shared/" },
      to: { path: "^src/protocol/", pathNot: "^src/protocol/shared/" },
    },
    {
      name: "protocols-are-independent",
      comment:
        "one protocol (dubbo, injvm, …) never imports another; what they share is in src/protocol/shared",
      severity: "error",
      from: { path: "^src/protocol/([^/]+)/", pathNot: "^src/protocol/shared/" },
      to: { path: "^src/protocol/", pathNot: ["^src/protocol/shared/", "^src/protocol/$1/"] },
    },
    {
      name: "config-knows-no-protocol",
      comment:
        "configuration maps options to URL keys; the keys a protocol shares live in src/protocol/shared",
      severity: "error",
      from: { path: "^src/config/" },
      to: { path: "^src/protocol/", pathNot: "^src/protocol/shared/" },
    },
    ...upwardRules,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
    },
  },
};
