import { describe, expect, it } from 'vitest';
import { isAwsDocumentation } from './external-links.ts';

describe('isAwsDocumentation', () => {
  it.each([
    ['https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html', true],
    ['https://aws.amazon.com/dynamodb/pricing/', true],
    ['http://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html', false],
    ['https://docs.aws.amazon.com.evil.example/x', false],
    ['https://user:pw@docs.aws.amazon.com/x', false],
    ['https://docs.aws.amazon.com:8443/x', false],
    ['file:///etc/passwd', false],
    ['javascript:alert(1)', false],
    ['not a url', false],
  ])('%s → %s', (url, expected) => {
    expect(isAwsDocumentation(url)).toBe(expected);
  });
});
