import { describe, expect, it } from 'vitest';
import { meansDocumentGone, PageErrorCode, pageErrorCodeOf } from './error-codes';

describe('page error codes', () => {
  it('keeps a known code from the wire and reads anything else as the generic one', () => {
    expect(pageErrorCodeOf('stale-ref')).toBe(PageErrorCode.StaleRef);
    expect(pageErrorCodeOf('not-actionable:visible')).toBe('not-actionable:visible');
    expect(pageErrorCodeOf('made-up')).toBe(PageErrorCode.Page);
    expect(pageErrorCodeOf(undefined)).toBe(PageErrorCode.Page);
  });

  it('says which failures mean the document went away', () => {
    expect(meansDocumentGone(PageErrorCode.FrameGone)).toBe(true);
    expect(meansDocumentGone(PageErrorCode.BadReply)).toBe(true);
    expect(meansDocumentGone(PageErrorCode.FrameChanged)).toBe(true);
    expect(meansDocumentGone(PageErrorCode.Scripting)).toBe(false);
    expect(meansDocumentGone(PageErrorCode.StaleRef)).toBe(false);
  });
});
