'use strict';
// Baseline for the HTTP benchmark: a bare Nest app with one POST route answering 201 {ok:true},
// behind a JSON body parser with the service's limit. No guard, pipes, interceptors or logger: what is
// left is the cost of Nest + the HTTP platform + body parsing itself. Two platforms: `express` (the
// service's own, with the same body parser) and `fastify` (Nest's other platform, its own parser).
// Usage: node bench/bare-nest.js <port> [express|fastify]; prints "listening <port>" when ready.
require('reflect-metadata');
const { Body, Controller, Module, Post } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');

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
  const platform = process.argv[3] || 'express';
  let app;
  if (platform === 'fastify') {
    const { FastifyAdapter } = require('@nestjs/platform-fastify');
    app = await NestFactory.create(BareModule, new FastifyAdapter({ bodyLimit: BODY_LIMIT_BYTES }), { logger: ['error', 'warn'] });
  } else {
    const { json } = require('express');
    app = await NestFactory.create(BareModule, { bodyParser: false, logger: ['error', 'warn'] });
    app.getHttpAdapter().getInstance().disable('x-powered-by');
    app.use(json({ limit: BODY_LIMIT_BYTES, type: ['application/json', 'application/*+json'] }));
  }
  app.enableShutdownHooks();
  await app.listen(port, '127.0.0.1');
  process.stdout.write(`listening ${port}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
