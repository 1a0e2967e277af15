import { EnvironmentScope } from '@app/kernel';
import { WorkflowInvalidError } from '../../domain/errors';
import { FieldErrors, StepDraft } from '../../domain/step-rules';
import { LayoutRepository } from '../../ports/layout.repository.port';

/**
 * The email steps of a write with their `layoutId` as the layout's own identifier (a step may name it
 * by `_id`, as Novu allows, and keeps its identifier); a layout the environment lacks is refused (422,
 * `steps.<i>.controlValues.layoutId`).
 */
export async function withStepLayouts(layouts: LayoutRepository, scope: EnvironmentScope, drafts: StepDraft[]): Promise<StepDraft[]> {
  const errors: FieldErrors = {};
  const identifiers = new Map<string, Promise<string | undefined>>();
  const identifierOf = (reference: string) => {
    if (!identifiers.has(reference))
      identifiers.set(
        reference,
        layouts.findByReference(scope, reference).then((layout) => layout?.layoutId),
      );
    return identifiers.get(reference)!;
  };
  const resolved = await Promise.all(
    drafts.map(async (draft, index) => {
      const reference = draft.template.type === 'email' ? draft.template.layoutId : undefined;
      if (typeof reference !== 'string') return draft;
      const layoutId = await identifierOf(reference);
      if (!layoutId) {
        errors[`steps.${index}.controlValues.layoutId`] = { messages: [`no layout ${reference} in this environment`], value: reference };
        return draft;
      }
      const controlValues = draft.controlValues ? { ...draft.controlValues, layoutId } : undefined;
      return { ...draft, template: { ...draft.template, layoutId }, ...(controlValues ? { controlValues } : {}) };
    }),
  );
  if (Object.keys(errors).length) throw new WorkflowInvalidError(errors);
  return resolved;
}
