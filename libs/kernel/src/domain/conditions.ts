/**
 * Novu's condition shape, shared by workflow step filters and integration conditions.
 * Several filters are OR'ed; the children of one filter are combined by its `value`.
 */
/** Every comparison a condition may make. */
export const CONDITION_OPERATORS = [
  'EQUAL',
  'NOT_EQUAL',
  'LARGER',
  'SMALLER',
  'LARGER_EQUAL',
  'SMALLER_EQUAL',
  'IN',
  'NOT_IN',
  'IS_DEFINED',
  'ALL_IN',
  'ANY_IN',
  'BETWEEN',
  'NOT_BETWEEN',
  'LIKE',
  'NOT_LIKE',
] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

export type ConditionSource = 'payload' | 'subscriber' | 'tenant' | string;

export interface ConditionPart {
  field: string;
  value: string;
  operator: ConditionOperator | string;
  on: ConditionSource;
}

/** Novu's previous-step filter values: whether the message an earlier step sent was read or seen (or not). */
export const PREVIOUS_STEP_STATES = ['read', 'unread', 'seen', 'unseen'] as const;
export type PreviousStepState = (typeof PREVIOUS_STEP_STATES)[number];

/**
 * Novu's `{on: 'previousStep', step, stepType}`: passes on the state of the message(s) the step with
 * uuid `step` sent in the same notification (step filters only, never integration conditions).
 */
export interface PreviousStepConditionPart {
  on: 'previousStep';
  /** The uuid of an earlier channel step of the workflow. */
  step: string;
  stepType: PreviousStepState;
}

/** A step filter's part: a field comparison or a previous-step check. */
export type StepConditionPart = ConditionPart | PreviousStepConditionPart;

export function isPreviousStepPart(part: StepConditionPart): part is PreviousStepConditionPart {
  return part.on === 'previousStep';
}

export interface Condition<Part extends { on: string } = ConditionPart> {
  isNegated?: boolean;
  type?: string; // Novu sends 'BOOLEAN'
  value: 'AND' | 'OR';
  children: Part[];
}

/** A workflow step's filter (may check a previous step). */
export type StepCondition = Condition<StepConditionPart>;
