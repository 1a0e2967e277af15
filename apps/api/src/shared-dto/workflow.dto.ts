import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  ValidationOptions,
} from 'class-validator';
import { CONDITION_OPERATORS, PREVIOUS_STEP_STATES } from '@app/kernel';

const NAME_MAX = 256;
const CONDITION_SOURCES = ['payload', 'subscriber', 'tenant', 'actor'] as const;
const BUILDER_FIELD_TYPES = ['BOOLEAN', 'TEXT', 'DATE', 'NUMBER', 'STATEMENT', 'LIST', 'MULTI_LIST', 'GROUP'] as const;

/** Condition values are compared as strings; numbers and booleans are accepted and kept as text. */
function IsConditionValue(options?: ValidationOptions) {
  return ValidateBy(
    {
      name: 'isConditionValue',
      validator: {
        validate: (value: unknown) => ['string', 'number', 'boolean'].includes(typeof value),
        defaultMessage: () => 'value must be a string, number or boolean',
      },
    },
    options,
  );
}

const isFieldPart = (part: { on?: unknown }) => part.on !== 'previousStep';
const isPreviousStepPart = (part: { on?: unknown }) => part.on === 'previousStep';

/** One comparison of a step filter (Novu's FieldFilterPartDto), or a previousStep check. */
export class StepFilterPartDto {
  @ApiPropertyOptional({
    description: 'Path inside the source (`on`), e.g. `plan` or `address.country`; required unless `on` is previousStep',
    example: 'plan',
  })
  @ValidateIf(isFieldPart)
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  field?: string;

  @ApiPropertyOptional({
    description: 'Expected value (templates like `{{payload.x}}` are rendered first); required unless `on` is previousStep',
    oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }],
    example: 'pro',
  })
  @ValidateIf(isFieldPart)
  @IsConditionValue()
  value?: string | number | boolean;

  @ApiPropertyOptional({ description: 'Comparison; required unless `on` is previousStep', enum: CONDITION_OPERATORS, example: 'EQUAL' })
  @ValidateIf(isFieldPart)
  @IsIn(CONDITION_OPERATORS)
  operator?: string;

  @ApiProperty({
    description:
      'What the field is read from; `previousStep` (Novu): instead of a field, the state of the message(s) an earlier channel step (`step`) sent ' +
      'in the same notification when this step runs — `stepType` read, unread, seen or unseen (an email counts as read and seen once its ' +
      'provider reports it opened or clicked); a step that sent nothing passes, as Novu',
    enum: [...CONDITION_SOURCES, 'previousStep'],
    example: 'payload',
  })
  @IsIn([...CONDITION_SOURCES, 'previousStep'])
  on: string;

  @ApiPropertyOptional({
    description: 'previousStep: the `uuid` of an earlier channel step of the workflow (422 otherwise); left out, the nearest channel step before this one',
    example: '0f8b0a4e-5d6c-4f4e-9a53-4a8d1b2f6c11',
  })
  @ValidateIf((part: { on?: unknown; step?: unknown }) => isPreviousStepPart(part) && part.step !== undefined)
  @IsString()
  @MaxLength(NAME_MAX)
  step?: string;

  @ApiPropertyOptional({ description: 'previousStep: the state that passes', enum: PREVIOUS_STEP_STATES, example: 'read' })
  @ValidateIf(isPreviousStepPart)
  @IsIn(PREVIOUS_STEP_STATES)
  stepType?: string;
}

/** A step filter (Novu's StepFilterDto): its comparisons combined by `value`. */
export class StepFilterDto {
  @ApiPropertyOptional({ description: 'Inverts the result of this filter', default: false })
  @IsOptional()
  @IsBoolean()
  isNegated?: boolean;

  @ApiPropertyOptional({ description: "Novu's builder field type (informational)", enum: BUILDER_FIELD_TYPES, default: 'GROUP' })
  @IsOptional()
  @IsIn(BUILDER_FIELD_TYPES)
  type?: string;

  @ApiProperty({ description: 'How the children combine', enum: ['AND', 'OR'], example: 'AND' })
  @IsIn(['AND', 'OR'])
  value: 'AND' | 'OR';

  @ApiProperty({ description: 'The comparisons of this filter', type: [StepFilterPartDto] })
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => StepFilterPartDto)
  children: StepFilterPartDto[];
}

// ---- responses ----

export class NotificationTriggerVariableDto {
  @ApiProperty({ description: 'Variable name', example: 'orderId' })
  name: string;
}

export class NotificationTriggerDto {
  @ApiProperty({ description: 'Always "event"', enum: ['event'] })
  type: 'event';
  @ApiProperty({ description: 'Trigger identifier', example: 'welcome' })
  identifier: string;
  @ApiProperty({ description: 'Payload variables the templates use', type: [NotificationTriggerVariableDto] })
  variables: NotificationTriggerVariableDto[];
  @ApiProperty({ description: 'Subscriber fields the templates use', type: [NotificationTriggerVariableDto] })
  subscriberVariables: NotificationTriggerVariableDto[];
}
