import { describe, expect, it } from 'vitest';
import { messageAfterPath } from './problems.ts';

describe('messageAfterPath', () => {
  it('drops the path a message starts with, so a list showing the path beside it names the place once', () => {
    expect(messageAfterPath({ path: 'DataModel[0].BillingMode', message: 'DataModel[0].BillingMode is the text "FREE"; expected PROVISIONED or PAY_PER_REQUEST.' })).toBe(
      'is the text "FREE"; expected PROVISIONED or PAY_PER_REQUEST.',
    );
    expect(messageAfterPath({ path: 'tables[0].name', message: 'tables[0].name: must be 3–255 characters.' })).toBe('must be 3–255 characters.');
  });

  it('keeps a message that does not start with its path, or starts with a longer one', () => {
    expect(messageAfterPath({ path: 'tables[0].name', message: 'must be 3–255 characters.' })).toBe('must be 3–255 characters.');
    expect(messageAfterPath({ path: 'tables[0]', message: 'tables[0].name is empty.' })).toBe('tables[0].name is empty.');
    expect(messageAfterPath({ path: '', message: 'The file is empty.' })).toBe('The file is empty.');
  });
});
