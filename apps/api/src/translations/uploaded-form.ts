import type { FastifyRequest } from 'fastify';
import type {} from '@fastify/multipart';
import { UnprocessableError } from '@app/kernel';
import type { TranslationFile } from '@app/workflows';

/** A multipart form's text fields and files, each file under the field it came in. */
export interface UploadedForm {
  fields: Record<string, string>;
  files: (TranslationFile & { field: string })[];
}

/** A form that is not what the route reads, in the ValidationPipe's shape. */
export class UploadFormInvalidError extends UnprocessableError {
  constructor(field: string, message: string, value: unknown) {
    super('upload_form_invalid', 'Validation Error', { errors: { [field]: { messages: [message], value } } });
  }
}

/**
 * Reads a `multipart/form-data` body whole (the upload routes' only kind: their files are small JSON).
 * @fastify/multipart limits each file to the body limit and the number of files and fields
 * (configureApp), answering 413 past them.
 */
export async function readUploadedForm(request: FastifyRequest): Promise<UploadedForm> {
  if (!request.isMultipart()) throw new UploadFormInvalidError('body', 'the body must be multipart/form-data', request.headers['content-type'] ?? null);
  const form: UploadedForm = { fields: {}, files: [] };
  for await (const part of request.parts()) {
    if (part.type === 'file') form.files.push({ field: part.fieldname, fileName: part.filename, content: await part.toBuffer() });
    else form.fields[part.fieldname] = String(part.value);
  }
  return form;
}

/** A text field the form must carry. */
export function requiredField(form: UploadedForm, name: string): string {
  const value = form.fields[name];
  if (value === undefined || value === '') throw new UploadFormInvalidError(name, `${name} must be given as a form field`, value ?? null);
  return value;
}
