import { describe, expect, it } from 'vitest';
import { FIELD_MOST_CHARS, fieldWidth } from './fieldWidth';

describe('fieldWidth', () => {
  // QA: 0.0000001 Mbps showed as .0000001 in a fixed 96 px field.
  it('gives a field room for every character of its value', () => {
    expect(fieldWidth('0.0000001', { spinner: true })).toBe('max(96px, calc(9ch + 40px))');
    expect(fieldWidth('0.0000001')).toBe('max(96px, calc(9ch + 20px))');
  });

  it('keeps the narrowest width for an empty field, and stops growing at the most characters', () => {
    expect(fieldWidth('')).toBe('max(96px, calc(0ch + 20px))');
    expect(fieldWidth('1'.repeat(40))).toBe(`max(96px, calc(${FIELD_MOST_CHARS}ch + 20px))`);
  });
});
