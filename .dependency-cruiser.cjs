// The hexagon as a checked rule (run by `npm test`): domain code is plain TypeScript, use cases
// depend on ports, adapters depend on ports, and nothing in libs depends on an app.
const CONTEXTS = '(kernel|environments|subscribers|tenants|integrations|workflows|delivery)';
const ADAPTERS = '^libs/(store-sql|store-mongo|queue|providers|redis|metrics)/';
const IO_MODULES = '^(fs|node:fs|net|node:net|http|node:http|https|node:https|http2|node:http2|dgram|node:dgram|child_process|node:child_process|pg|@electric-sql/pglite|mongoose|bull|ioredis|nodemailer|express|prom-client)$';

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
      name: 'adapters-do-not-import-each-other',
      severity: 'error',
      from: { path: '^libs/(store-sql|store-mongo)/' },
      to: { path: '^libs/(store-sql|store-mongo|queue|providers)/', pathNot: '^libs/$1/' },
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
