import { ErrorReason } from '@retail/contract';
import { describe, expect, it } from 'vitest';
import { CoreError } from '../errors.js';
import { isbn10ToIsbn13, isbn13ToIsbn10, validateGtin } from './gtin.js';

function rejection(raw: string): CoreError {
  try {
    validateGtin(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(CoreError);
    return error as CoreError;
  }
  throw new Error(`${raw} was accepted`);
}

describe('validateGtin', () => {
  it.each([
    ['0306406152', '0306406152', 'ISBN-10'],
    ['080442957X', '080442957X', 'ISBN-10'],
    ['0-8044-2957-x', '080442957x', 'ISBN-10'],
    ['0 19 852663 6', '0198526636', 'ISBN-10'],
    ['036000291452', '036000291452', 'UPC-A'],
    ['0 36000 29145 2', '036000291452', 'UPC-A'],
    ['96385074', '96385074', 'EAN-8'],
    ['7351-3537', '73513537', 'EAN-8'],
    ['4006381333931', '4006381333931', 'EAN-13'],
    ['978-0-306-40615-7', '9780306406157', 'EAN-13'],
    ['10012345678902', '10012345678902', 'GTIN-14'],
    ['00012345600012', '00012345600012', 'GTIN-14'],
  ])('accepts %j as %s (%s)', (raw, gtin, kind) => {
    expect(validateGtin(raw)).toEqual({ gtin, kind });
  });

  it.each([
    ['0306406153', 'ISBN-10'],
    ['0804429570', 'ISBN-10'],
    ['036000291453', 'UPC-A'],
    ['96385075', 'EAN-8'],
    ['4006381333932', 'EAN-13'],
    ['9780306406158', 'EAN-13'],
    ['10012345678903', 'GTIN-14'],
  ])('rejects %j: wrong %s check digit', (raw) => {
    const error = rejection(raw);
    expect(error.reason).toBe(ErrorReason.INVALID_ARGUMENT);
    expect(error.message).toBe('gtin has an invalid check digit');
    expect(error.fieldPath).toEqual(['gtin']);
  });

  it.each(['', '1234567', '123456789', '12345678901', '123456789012345', 'X306406152', '03064061X2', '4006381333931X', 'abcdefghijkl', '４００６３８１３３３９３１'])(
    'rejects %j as no GTIN kind',
    (raw) => {
      expect(rejection(raw).reason).toBe(ErrorReason.INVALID_ARGUMENT);
    },
  );
});

describe('ISBN conversions', () => {
  it('converts between ISBN-10 and 978 ISBN-13', () => {
    expect(isbn13ToIsbn10('9780306406157')).toBe('0306406152');
    expect(isbn13ToIsbn10('9780804429573')).toBe('080442957X');
    expect(isbn13ToIsbn10('9791234567896')).toBeUndefined();
    expect(isbn10ToIsbn13('0306406152')).toBe('9780306406157');
  });
});
