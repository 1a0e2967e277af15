// The hexagon as a checked rule (run by `npm test`; test/architecture shows each rule refusing a
// violation): domain code is plain TypeScript, use cases depend on ports, adapters depend on ports
// and never on each other, libs/bootstrap alone wires several adapters, apps share only libs, and
// inside apps/api a context folder imports only its own folder and the app's shared folders.
const CONTEXTS = '(kernel|environments|subscribers|tenants|contexts|integrations|workflows|delivery|webhooks|inbox)';
const ADAPTER_LIBS = '(store-sql|store-mongo|queue|providers|redis|metrics|realtime)';
const ADAPTERS = `^libs/${ADAPTER_LIBS}/`;
// apps/api's folders every context may import: guards, pipes, interceptors and errors; Swagger; the DTOs several contexts serve.
const API_SHARED = '(http|docs|shared-dto)';
const IO_MODULES =
  '^(fs|node:fs|net|node:net|http|node:http|https|node:https|http2|node:http2|dgram|node:dgram|child_process|node:child_process|pg|@electric-sql/pglite|mongoose|bull|ioredis|nodemailer|express|prom-client)$';

module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'domain/ holds entities and rules: no framework, no I/O, no adapters, no use cases',
      severity: 'error',
      from: { path: `^libs/${CONTEXTS}/src/domain/` },
      to: {
        path: [`^libs/[^/]+/src/(application|ports)/`, ADAPTERS, '^apps/', '@nestjs', IO_MODULES],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'domain-no-io-modules',
      severity: 'error',
      from: { path: `^libs/${CONTEXTS}/src/domain/` },
      to: { dependencyTypes: ['core', 'npm'], path: IO_MODULES },
    },
    {
      name: 'use-cases-depend-on-ports',
      comment: 'application/ may use domain, ports and @nestjs/common for DI, never an adapter or I/O library',
      severity: 'error',
      from: { path: `^libs/${CONTEXTS}/src/(application|ports)/` },
      to: { path: [ADAPTERS, '^apps/', IO_MODULES, '@nestjs/(core|platform-|swagger|bull)'] },
    },
    {
      name: 'libs-never-import-apps',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    {
      name: 'apps-do-not-import-each-other',
      comment: 'an app imports its own folder and libs; what several apps need lives in libs/bootstrap',
      severity: 'error',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'api-contexts-do-not-import-each-other',
      comment:
        "a context folder of apps/api (topics/, messages/, inbox/…) imports its own folder and the app's shared folders, never another context " +
        'nor the root files that compose the app: what several contexts serve lives in shared-dto/',
      severity: 'error',
      from: { path: '^apps/api/src/([^/]+)/', pathNot: `^apps/api/src/${API_SHARED}/` },
      to: { path: '^apps/api/src/', pathNot: `^apps/api/src/($1|${API_SHARED})/` },
    },
    {
      name: 'api-shared-folders-import-no-context',
      comment: "apps/api's shared folders (http/, docs/, shared-dto/) import only each other",
      severity: 'error',
      from: { path: `^apps/api/src/${API_SHARED}/` },
      to: { path: '^apps/api/src/', pathNot: `^apps/api/src/${API_SHARED}/` },
    },
    {
      name: 'adapters-do-not-import-each-other',
      comment: 'adapters meet through ports (kernel and contexts); libs/bootstrap is the one place that wires several',
      severity: 'error',
      from: { path: ADAPTERS },
      to: { path: ADAPTERS, pathNot: '^libs/$1/' },
    },
    {
      name: 'only-apps-import-bootstrap',
      comment: 'libs/bootstrap composes the service from every library; a library that imported it would depend on all of them',
      severity: 'error',
      from: { path: '^libs/', pathNot: '^libs/bootstrap/' },
      to: { path: '^libs/bootstrap/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(\\.spec\\.ts$|node_modules|dist)' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
