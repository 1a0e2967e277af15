import { Translation } from '@app/workflows';
import { translationDocuments, translationFilter, translationUpsert } from './mongo-translation.repository';

const at = new Date('2025-01-01T00:00:00.000Z');
const later = new Date('2025-02-01T00:00:00.000Z');
const translation: Translation = {
  id: 't1',
  organizationId: 'o1',
  environmentId: 'e1',
  resourceType: 'workflow',
  resourceKey: 'w1',
  locale: 'de_AT',
  content: { 'email.subject': 'Hallo', nested: { $odd: 'x' } },
  createdAt: at,
  updatedAt: later,
};

describe('translation documents', () => {
  it('round-trip, keys with dots and dollars kept through the JSON codec', () => {
    const doc = translationDocuments.toDocument(translation);
    expect(doc.content).toEqual({ 'email%2Esubject': 'Hallo', nested: { '%24odd': 'x' } });
    expect(translationDocuments.toDomain(doc)).toEqual(translation);
  });
});

describe('translation writes', () => {
  it('an upsert finds the resource and locale, inserts id, organization and creation time only once, and sets content and updatedAt', () => {
    expect(translationFilter({ organizationId: 'o1', environmentId: 'e1' }, { type: 'workflow', key: 'w1' }, 'de_AT')).toEqual({
      environmentId: 'e1',
      resourceType: 'workflow',
      resourceKey: 'w1',
      locale: 'de_AT',
    });
    expect(translationUpsert(translation)).toEqual({
      $setOnInsert: { _id: 't1', organizationId: 'o1', createdAt: at },
      $set: { content: { 'email%2Esubject': 'Hallo', nested: { '%24odd': 'x' } }, updatedAt: later },
    });
  });
});
