/** The MantisBT connector's form handling, against pages shaped like MantisBT's own. */
import { describe, expect, it } from 'vitest';
import { createConnectorContext } from '../context';
import { FakeTabPort } from '../fake-tab-port';
import mantisbt, { responseError } from './mantisbt';

const ERROR_PAGE = (code: number, text: string) =>
  `<div class="alert alert-danger"><p class="bold">APPLICATION ERROR #${code}</p><p>${text}</p><div class="error-info">Back</div></div>`;

const ISSUE_PAGE = `<html><body>
  <a href="/logout_page.php">Logout</a>
  <table><tr><td class="bug-id">0000007</td><td class="bug-summary">0000007: Broken</td></tr></table>
  <div id="bugnotes"><table><tr class="bugnote"><td class="category"><p class="no-margin"><a href="view_user_page.php?id=2">Alice</a></p>
  <p class="no-margin small">2026-12-01 10:30</p><a rel="bookmark">~0000001</a></td><td class="bugnote-note bugnote-public">Old</td></tr></table></div>
  <form id="bugnoteadd"><input name="bugnote_add_token" value="t1"><input name="bug_id" value="7"><textarea name="bugnote_text"></textarea></form>
</body></html>`;

function context(port: FakeTabPort) {
  return createConnectorContext({
    connectorId: 'mantisbt',
    connectorName: 'MantisBT',
    site: 'http://mantis.test/',
    auth: mantisbt.auth,
    port,
    urlRefusal: async () => undefined,
    signal: new AbortController().signal,
    log: () => undefined,
    timeoutMs: 200,
  });
}

describe('MantisBT connector', () => {
  it('reads MantisBT’s error box out of a form’s answer', () => {
    expect(responseError(ERROR_PAGE(2800, 'Invalid form security token. This &quot;may&quot; be a timeout.'))).toEqual({
      code: 2800,
      message: 'Invalid form security token. This "may" be a timeout.',
    });
    expect(responseError('<p class="bold">Issue #12</p><p>fine</p>')).toBeNull();
  });

  it('sends a form refused for an expired token once more with a fresh one, then reports the refusal', async () => {
    const port = new FakeTabPort({
      pages: { '/view.php?id=7': ISSUE_PAGE },
      fetches: {
        '/bugnote_add.php': {
          status: 200,
          url: 'http://mantis.test/bugnote_add.php',
          text: ERROR_PAGE(2800, 'Invalid form security token.'),
        },
      },
    });
    await expect(mantisbt.tools.add_note!.run({ id: 7, text: 'New', private: false }, context(port))).rejects.toThrow(
      'MantisBT refused it (#2800): Invalid form security token.',
    );
    expect(port.fetched.map((f) => [f.method, f.form?.bugnote_add_token, f.form?.bugnote_text])).toEqual([
      ['POST', 't1', 'New'],
      ['POST', 't1', 'New'],
    ]);
  });

  it('refuses a private note when the form offers no private box, and sends nothing', async () => {
    const port = new FakeTabPort({ pages: { '/view.php?id=7': ISSUE_PAGE } });
    await expect(mantisbt.tools.add_note!.run({ id: 7, text: 'Secret', private: true }, context(port))).rejects.toThrow(
      'You may not add private notes to issue 7 in MantisBT; nothing was sent.',
    );
    expect(port.fetched).toEqual([]);
  });

  it('does not send a note when the form was answered by the sign-in page', async () => {
    const port = new FakeTabPort({
      pages: { '/view.php?id=7': ISSUE_PAGE },
      fetches: {
        '/bugnote_add.php': {
          status: 200,
          url: 'http://mantis.test/login_page.php?return=x',
          text: '<form id="login-form">',
        },
      },
    });
    await expect(mantisbt.tools.add_note!.run({ id: 7, text: 'New', private: false }, context(port))).rejects.toThrow(
      'You are signed out of MantisBT',
    );
    expect(port.fetched).toHaveLength(1);
  });
});
