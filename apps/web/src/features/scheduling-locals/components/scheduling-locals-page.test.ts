import { LOCAL_IDENTIFIER_MESSAGES } from '@exame/shared';
import { describe, expect, it } from 'vitest';
import { validateLocal } from './scheduling-locals-page';

describe('the service-post form, validated with the shared schema', () => {
  it('gives the trimmed values, with no address as null', () => {
    expect(
      validateLocal('DF', {
        identifier: ' DF.CENTRO ',
        description: ' Posto Centro ',
        address: ' ',
      }),
    ).toEqual({
      input: { identifier: 'DF.CENTRO', description: 'Posto Centro', address: null },
      errors: null,
    });
  });

  it('shows the schema texts, in pt-BR, under each field', () => {
    const result = validateLocal('DF', { identifier: '', description: 'ab', address: null });
    expect(result.input).toBeNull();
    expect(result.errors).toEqual({
      identifier: LOCAL_IDENTIFIER_MESSAGES.required,
      description: 'Informe o nome do posto.',
    });
  });

  it('accepts a dash in the identifier only where the unit allows it (CE)', () => {
    const values = { identifier: 'CE.FORTALEZA-CENTRO', description: 'Fortaleza', address: null };
    expect(validateLocal('CE', values).errors).toBeNull();
    expect(validateLocal('DF', { ...values, identifier: 'DF.A-B' }).errors).toEqual({
      identifier: LOCAL_IDENTIFIER_MESSAGES.dash,
    });
  });
});
