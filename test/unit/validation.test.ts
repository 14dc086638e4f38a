import { validate } from '../../api/validation.ts';
import { pageQuerySchema } from '../../api/pagination.ts';
import { HttpError } from '../../http/errors.ts';

const schema = { type: 'object', properties: pageQuerySchema({ max: 50, default: 20 }), required: [] };

const errorsOf = (query: Record<string, unknown>) => {
  try {
    validate('query', schema, query);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    return ((error as HttpError).body as { errors: Record<string, string[]> }).errors;
  }
};

describe('pagination parameters', () => {
  it('default to limit 20, page 1, and coerce numeric strings', () => {
    expect(validate('query', schema, {})).toEqual({ limit: 20, page: 1 });
    expect(validate('query', schema, { limit: '50', page: '3' })).toEqual({ limit: 50, page: 3 });
  });

  it('are a 422 outside their range or when not whole numbers, never silently clamped', () => {
    expect(errorsOf({ limit: '51' })).toEqual({ limit: ['The limit may not be greater than 50.'] });
    expect(errorsOf({ limit: '0' })).toEqual({ limit: ['The limit must be at least 1.'] });
    expect(errorsOf({ page: 'two' })).toEqual({ page: ['The page must be an integer.'] });
    expect(errorsOf({ page: '1.5' })).toEqual({ page: ['The page must be an integer.'] });
    expect(errorsOf({ limit: ['1', '2'] })).toEqual({ limit: ['The limit must be an integer.'] });
  });
});
