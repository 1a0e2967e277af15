import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { HEALTH_PROBES, HealthProbe } from '@app/kernel';
import { PublicRoute } from '../http/api-key.guard';
import { RawResponse } from '../http/envelope.interceptor';

@ApiTags('Health')
@Controller({ path: 'health-check', version: '1' })
@PublicRoute()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicator: HealthIndicatorService,
    @Inject(HEALTH_PROBES) private readonly probes: HealthProbe[],
  ) {}

  @Get()
  @RawResponse()
  @HealthCheck()
  @ApiOperation({ summary: 'Liveness and readiness: the store and, when configured, Redis answer' })
  check() {
    return this.health.check(this.probes.map((probe) => () => this.ping(probe)));
  }

  private async ping(probe: HealthProbe) {
    const indicator = this.indicator.check(probe.name);
    try {
      await probe.ping();
      return indicator.up();
    } catch (error) {
      return indicator.down({ message: (error as Error).message });
    }
  }
}
