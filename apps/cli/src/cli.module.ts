import { DynamicModule, Module } from '@nestjs/common';
import { CoreModule, storeModule } from '@app/bootstrap';
import { AppConfig } from '@app/config';
import { EnvironmentsModule } from '@app/environments';
import { IntegrationsModule } from '@app/integrations';

@Module({})
export class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [CoreModule.forRoot({ config }), storeModule({ config }), EnvironmentsModule, IntegrationsModule],
    };
  }
}
