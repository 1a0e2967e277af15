'use strict';
// Baseline for the HTTP benchmark: a bare Nest app on Fastify (the api's platform) with one POST route
// answering 201 {ok:true}, with the service's body limit. No guard, pipes, interceptors or logger: what
// is left is the cost of Nest + Fastify + JSON body parsing itself.
// Usage: node bench/bare-nest.js <port>; prints "listening <port>" when ready.
require('reflect-metadata');
const { Body, Controller, Module, Post } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { FastifyAdapter } = require('@nestjs/platform-fastify');

const BODY_LIMIT_BYTES = 600 * 1024; // the service's BODY_LIMIT_BYTES default

class BenchController {
  create(_body) {
    return { ok: true };
  }
}
// Plain JS has no decorator syntax: apply them as TypeScript would.
Reflect.decorate([Post('bench')], BenchController.prototype, 'create', Object.getOwnPropertyDescriptor(BenchController.prototype, 'create'));
Body()(BenchController.prototype, 'create', 0);
Reflect.decorate([Controller()], BenchController);

class BareModule {}
Reflect.decorate([Module({ controllers: [BenchController] })], BareModule);

async function main() {
  const port = Number(process.argv[2] || 3999);
  const app = await NestFactory.create(BareModule, new FastifyAdapter({ bodyLimit: BODY_LIMIT_BYTES }), { logger: ['error', 'warn'] });
  app.enableShutdownHooks();
  await app.listen(port, '127.0.0.1');
  process.stdout.write(`listening ${port}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
