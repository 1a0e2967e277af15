import { buildSteps } from './step-rules';
import { collectTemplateVariables } from './template-variables';

const stepsWith = (template: Record<string, unknown>, filters: any[] = []) => buildSteps([{ template: { type: 'email', ...template } as any, filters }]);

describe('collectTemplateVariables', () => {
  it('reads payload variables written the Liquid way and the Handlebars way', () => {
    const { variables, subscriberVariables } = collectTemplateVariables(
      stepsWith({ subject: 'Hi {{ subscriber.firstName }}', content: '{{payload.orderId}} and {{ total | money }} and {{{rawHtml}}}' }),
    );
    expect(variables.sort()).toEqual(['orderId', 'rawHtml', 'total']);
    expect(subscriberVariables).toEqual(['firstName']);
  });

  it('understands block helpers, helper calls and loops without inventing variables', () => {
    const { variables } = collectTemplateVariables(
      stepsWith({
        content:
          '{{#if payload.vip}}VIP{{/if}}{{#each items}}{{this.name}}{{/each}}{{uppercase payload.city}}' +
          '{% for line in payload.lines %}{{ line.sku }}{% endfor %}{% if payload.note %}{{ payload.note }}{% endif %}{{ step.digest }}',
      }),
    );
    expect(variables.sort()).toEqual(['city', 'items', 'lines', 'note', 'vip']);
  });

  it('scans email blocks, cta urls, buttons, variants and filter values', () => {
    const steps = buildSteps([
      {
        template: {
          type: 'in_app',
          content: 'x',
          cta: { type: 'redirect', data: { url: '/t/{{payload.taskId}}' }, action: { buttons: [{ type: 'primary', content: '{{payload.label}}' }] } },
        },
        filters: [{ value: 'AND', children: [{ field: 'plan', value: '{{payload.expectedPlan}}', operator: 'EQUAL', on: 'payload' }] }],
        variants: [{ template: { type: 'in_app', content: '{{payload.variantOnly}}' } }],
      },
      {
        template: {
          type: 'email',
          content: [
            { type: 'text', content: 'Hello {{payload.blockVar}}' },
            { type: 'button', content: 'Go', url: '{{payload.link}}' },
          ],
        },
      },
    ]);
    expect(collectTemplateVariables(steps).variables.sort()).toEqual(['blockVar', 'expectedPlan', 'label', 'link', 'taskId', 'variantOnly']);
  });

  it('keeps nested paths and de-duplicates', () => {
    const { variables } = collectTemplateVariables(stepsWith({ content: '{{payload.user.name}} {{ payload.user.name }}' }));
    expect(variables).toEqual(['user.name']);
  });
});
