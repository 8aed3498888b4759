import { afterEach, describe, expect, it, vi } from 'vitest';

describe('t', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('fills $1…$n from the English file outside the extension', async () => {
    const { t } = await import('./i18n');
    expect(t('copyCodeIn', 'ts')).toBe('Copy ts code');
    expect(t('contextUsed', '27', '53,000', '200,000')).toBe('27% used (53,000 of 200,000 tokens)');
    expect(t('send')).toBe('Send');
  });

  it('asks chrome.i18n once per message and substitutes itself', async () => {
    const getMessage = vi.fn((key: string, substitutions: string[]) =>
      key === 'copyCodeIn' ? `Kopiere ${substitutions[0]}-Code` : '',
    );
    vi.stubGlobal('chrome', { i18n: { getMessage } });
    const { t } = await import('./i18n');
    expect(t('copyCodeIn', 'ts')).toBe('Kopiere ts-Code');
    expect(t('copyCodeIn', 'py')).toBe('Kopiere py-Code');
    expect(t('send')).toBe('Send');
    expect(t('removeAgent', 'Demo')).toBe('Remove Demo');
    expect(getMessage.mock.calls.map(([key]) => key)).toEqual(['copyCodeIn', 'send', 'removeAgent']);
  });
});
