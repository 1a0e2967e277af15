import { Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { TranslationInvalidError, localeOfFileName } from '../../domain/translation';
import { ImportMasterJson, ImportMasterJsonResult } from './import-master-json.use-case';
import { TranslationFile, parseJsonFile } from './upload-translations.use-case';

export interface UploadMasterJsonCommand {
  scope: EnvironmentScope;
  file: TranslationFile;
}

/** POST /v2/translations/master-json/upload: the master JSON as a file named by its locale (`fr_FR.json`). */
@Injectable()
export class UploadMasterJson {
  constructor(private readonly importMasterJson: ImportMasterJson) {}

  async execute({ scope, file }: UploadMasterJsonCommand): Promise<ImportMasterJsonResult> {
    const locale = localeOfFileName(file.fileName);
    if (!locale) {
      throw new TranslationInvalidError(
        { file: { messages: [`${file.fileName}: name the file <locale>.json, e.g. en_US.json or de.json`], value: file.fileName } },
        'The file name is not a locale',
      );
    }
    const parsed = parseJsonFile(file);
    if (!('value' in parsed)) throw new TranslationInvalidError({ file: { messages: [`${file.fileName}: ${parsed.problem}`], value: file.fileName } });
    return this.importMasterJson.execute({ scope, locale, masterJson: parsed.value });
  }
}
