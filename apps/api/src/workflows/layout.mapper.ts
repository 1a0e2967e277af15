import { LayoutControlValues, ShownLayout, layoutSlug } from '@app/workflows';
import { LayoutResponseDto, UpdateLayoutDto } from './layout.dto';
import { SUBSCRIBER_VARIABLES_SCHEMA } from './workflow-v2.schemas';

/** The JSON Schema of a layout's controls (Novu's: an optional email frame). */
const LAYOUT_CONTROLS_SCHEMA = {
  type: 'object',
  properties: {
    email: {
      type: 'object',
      properties: { body: { type: 'string', minLength: 1 }, editorType: { type: 'string', enum: ['block', 'html'], default: 'block' } },
      required: ['body'],
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

/** Novu's editor components for them. */
const LAYOUT_UI_SCHEMA = {
  group: 'LAYOUT',
  properties: {
    email: {
      component: 'LAYOUT_EMAIL',
      properties: { body: { component: 'EMAIL_BODY', placeholder: '' }, editorType: { component: 'EMAIL_EDITOR_SELECT', placeholder: 'block' } },
    },
  },
};

/** What a layout's frame may read: the subscriber, and the trigger's payload when an email is sent in it. */
const LAYOUT_VARIABLES_SCHEMA = {
  type: 'object',
  properties: { subscriber: SUBSCRIBER_VARIABLES_SCHEMA, payload: { type: 'object', additionalProperties: true } },
};

export function toLayoutResponse(layout: ShownLayout): LayoutResponseDto {
  return {
    _id: layout.id,
    layoutId: layout.layoutId,
    slug: layoutSlug(layout),
    name: layout.name,
    isDefault: layout.isDefault,
    isTranslationEnabled: layout.isTranslationEnabled,
    updatedAt: layout.updatedAt.toISOString(),
    updatedBy: null,
    createdAt: layout.createdAt.toISOString(),
    origin: 'novu-cloud',
    type: 'BRIDGE',
    variables: LAYOUT_VARIABLES_SCHEMA,
    controls: { dataSchema: LAYOUT_CONTROLS_SCHEMA, uiSchema: LAYOUT_UI_SCHEMA, values: layout.controlValues ?? {} },
  };
}

/** The controls of a write, the editor type Novu assumes (block) filled in; null clears them, undefined leaves them. */
export function layoutControlValues(body: Pick<UpdateLayoutDto, 'controlValues'>): LayoutControlValues | null | undefined {
  const given = body.controlValues;
  if (given === undefined || given === null) return given;
  return given.email ? { email: { body: given.email.body, editorType: given.email.editorType ?? 'block' } } : {};
}
