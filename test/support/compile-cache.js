'use strict';
// Preloaded (`node --require`) into the service processes the tests start: V8's compiled code of each
// module kept on disk between them by v8-compile-cache (Node 20 has no module compile cache of its own).
// A module with a dynamic import() (PGlite has some) is left to Node: v8-compile-cache compiles
// through the vm module, where import() finds no loader.
const Module = require('node:module');

const nodeCompile = Module.prototype._compile;
require('v8-compile-cache');
const cachedCompile = Module.prototype._compile;
Module.prototype._compile = function compile(content, filename) {
  return (content.includes('import(') ? nodeCompile : cachedCompile).call(this, content, filename);
};
