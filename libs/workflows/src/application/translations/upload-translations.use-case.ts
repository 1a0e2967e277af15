import { Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { TranslationContent, TranslationInvalidError, TranslationResourceType, localeOfFileName, translationContentProblems } from '../../domain/translation';
import { SaveTranslation } from './save-translation.use-case';
import { TranslationResources } from './translation-resources';

/** An uploaded file: its name says its locale (`de_AT.json`). */
export interface TranslationFile {
  fileName: string;
  content: Buffer;
}

export interface UploadTranslationsCommand {
  scope: EnvironmentScope;
  resourceType: TranslationResourceType;
  resourceId: string;
  files: TranslationFile[];
}

export interface UploadTranslationsResult {
  totalFiles: number;
  successfulUploads: number;
  failedUploads: number;
  /** One line per file that could not be stored. */
  errors: string[];
}

/** The JSON object a file holds, or why it holds none. */
export function parseJsonFile(file: TranslationFile): { value: unknown } | { problem: string } {
  try {
    return { value: JSON.parse(file.content.toString('utf8').replace(/^\uFEFF/, '')) };
  } catch (error) {
    return { problem: `it is not JSON (${(error as Error).message})` };
  }
}

/**
 * POST /v2/translations/upload: one resource's translations from files named by locale, each replacing
 * that locale's. A file name that is not `<locale>.json` refuses the whole upload; a file that is not
 * translation content fails alone, and the upload only when every file does.
 */
@Injectable()
export class UploadTranslations {
  constructor(
    private readonly resources: TranslationResources,
    private readonly saveTranslation: SaveTranslation,
  ) {}

  async execute({ scope, resourceType, resourceId, files }: UploadTranslationsCommand): Promise<UploadTranslationsResult> {
    if (files.length === 0) throw new TranslationInvalidError({ files: { messages: ['files must hold at least one <locale>.json file'], value: [] } });
    const badNames = files.filter((file) => !localeOfFileName(file.fileName)).map((file) => file.fileName);
    if (badNames.length > 0) {
      throw new TranslationInvalidError(
        { files: { messages: badNames.map((name) => `${name}: name the file <locale>.json, e.g. en_US.json or de.json`), value: badNames } },
        'Some files have invalid names or formats',
      );
    }
    const named = await this.resources.resolve(scope, resourceType, resourceId);
    const errors: string[] = [];
    for (const file of files) {
      const parsed = parseJsonFile(file);
      const problems = 'value' in parsed ? Object.values(translationContentProblems(parsed.value)).flatMap((problem) => problem.messages) : [parsed.problem];
      if (problems.length > 0) errors.push(`Failed to process file '${file.fileName}': ${problems.join('; ')}`);
      else await this.saveTranslation.save(scope, named, localeOfFileName(file.fileName)!, (parsed as { value: TranslationContent }).value);
    }
    if (errors.length === files.length)
      throw new TranslationInvalidError({ files: { messages: errors, value: files.map((f) => f.fileName) } }, 'No valid translation files were found');
    return { totalFiles: files.length, successfulUploads: files.length - errors.length, failedUploads: errors.length, errors };
  }
}
