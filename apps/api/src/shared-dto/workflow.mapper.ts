import { StepCondition, isPreviousStepPart } from '@app/kernel';
import { StepFilterDto } from './workflow.dto';

/** A stored step filter as answered (Novu's shapes: a previousStep part has no field, value or operator). */
export function toFilterResponse(condition: StepCondition): StepFilterDto {
  return {
    isNegated: condition.isNegated ?? false,
    type: condition.type ?? 'GROUP',
    value: condition.value,
    children: condition.children.map((part) =>
      isPreviousStepPart(part)
        ? { on: part.on, step: part.step, stepType: part.stepType }
        : { field: part.field, value: String(part.value), operator: part.operator, on: part.on },
    ),
  };
}
