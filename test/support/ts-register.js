// Lets a child process run the TypeScript sources (with the tsconfig path aliases), as jest does in-process:
//   node -r ./test/support/ts-register.js test/support/some-script.ts
const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');
const { transformSync } = require('@swc/core');

const root = path.resolve(__dirname, '../..');
const { compilerOptions } = require(path.join(root, 'tsconfig.json'));
const aliases = Object.entries(compilerOptions.paths).map(([alias, [target]]) => [alias, path.join(root, target)]);

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  for (const [alias, target] of aliases) {
    if (request === alias) return resolveFilename.call(this, target, ...rest);
    if (request.startsWith(`${alias}/`)) return resolveFilename.call(this, target + request.slice(alias.length), ...rest);
  }
  return resolveFilename.call(this, request, ...rest);
};

require.extensions['.ts'] = function compileTypeScript(module, filename) {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  });
  module._compile(code, filename);
};
