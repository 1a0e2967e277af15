'use strict';
// jest's module runtime, keeping V8's compiled code of each module for the next test file of the same worker.
// Every test file gets a fresh module registry, so each file that starts the service compiles its
// ~3,000 modules again, and V8's own compilation cache never matches jest's scripts (each carries its
// own dynamic-import callback). Here the code V8 compiled while a file ran, lazily compiled functions
// included, is taken at the file's teardown and offered to the same module's next compile, only for
// the very same source (V8 checks little more than its length). A module with a dynamic import() is
// compiled afresh every time: code from the cache calls the import callback of the file that made it,
// gone with that file's context.
const { Script } = require('node:vm');
const Runtime = require('jest-runtime').default;

/** filename -> the wrapped source and V8's code cache for it, for this worker's life */
const compiled = new Map();

class CodeCacheRuntime extends Runtime {
  /** scripts this file compiled without a cache; their code is kept at teardown */
  #uncached = new Map();

  createScriptFromCode(scriptSource, filename) {
    if (this._resolver.isCoreModule(filename) || scriptSource.includes('import(')) return super.createScriptFromCode(scriptSource, filename);
    const source = this.wrapCodeInModuleWrapper(scriptSource);
    const kept = compiled.get(filename);
    const cachedData = kept && kept.source === source ? kept.data : undefined;
    let script;
    try {
      script = new Script(source, {
        filename,
        columnOffset: this._fileTransforms.get(filename)?.wrapperLength,
        displayErrors: true,
        cachedData,
        importModuleDynamically: async (specifier) => {
          const module = await this.resolveModule(specifier, filename, this._environment.getVmContext());
          return this.linkAndEvaluateModule(module);
        },
      });
    } catch {
      // jest reports a syntax error its own way
      return super.createScriptFromCode(scriptSource, filename);
    }
    if (!cachedData || script.cachedDataRejected) this.#uncached.set(filename, { script, source });
    return script;
  }

  teardown() {
    for (const [filename, { script, source }] of this.#uncached) compiled.set(filename, { source, data: script.createCachedData() });
    this.#uncached.clear();
    super.teardown();
  }
}

module.exports = CodeCacheRuntime;
