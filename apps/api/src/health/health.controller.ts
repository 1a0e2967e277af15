import { Controller, Get, Inject, Optional } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { SQL_CLIENT, SqlClient } from '@app/store-sql';
import { PublicRoute } from '../http/api-key.guard';
import { RawResponse } from '../http/envelope.interceptor';
import { REDIS_CONNECTION } from '../redis.tokens';
import type Redis from 'ioredis';

@ApiTags('Health')
@Controller({ path: 'health-check', version: '1' })
@PublicRoute()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicator: HealthIndicatorService,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
    @Optional() @Inject(REDIS_CONNECTION) private readonly redis?: Redis,
  ) {}

  @Get()
  @RawResponse()
  @HealthCheck()
  @ApiOperation({ summary: 'Liveness and readiness: the store and, when configured, Redis answer' })
  check() {
    const checks = [() => this.ping('store', () => this.sql.query('SELECT 1'))];
    if (this.redis) checks.push(() => this.ping('redis', () => this.redis!.ping()));
    return this.health.check(checks);
  }

  private async ping(name: string, probe: () => Promise<unknown>) {
    const indicator = this.indicator.check(name);
    try {
      await probe();
      return indicator.up();
    } catch (error) {
      return indicator.down({ message: (error as Error).message });
    }
  }
}
