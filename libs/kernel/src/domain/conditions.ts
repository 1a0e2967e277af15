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

export interface Condition {
  isNegated?: boolean;
  type?: string; // Novu sends 'BOOLEAN'
  value: 'AND' | 'OR';
  children: ConditionPart[];
}
