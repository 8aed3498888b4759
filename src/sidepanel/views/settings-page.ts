/**
 * Settings as one page that says what is on it: a list of its sections comes first, and each
 * entry moves the view and the keyboard focus to its section, so the person finds "Blocklist"
 * without scrolling past the nine others. The sections keep their own redraws; the list finds each
 * by its heading's id when it is followed.
 */
import { h } from '../dom';
import { t } from '../i18n';

export interface SettingsEntry {
  headingId: string;
  title: string;
}

/** The sections in `parts`, in page order: each `[aria-labelledby]` section with its heading's words. */
export function settingsEntries(parts: readonly Element[]): SettingsEntry[] {
  return parts.flatMap((part) =>
    [part, ...part.querySelectorAll('section[aria-labelledby]')].flatMap((section) => {
      const headingId = section.matches('section[aria-labelledby]') ? section.getAttribute('aria-labelledby') : null;
      const heading = headingId ? section.querySelector(`#${CSS.escape(headingId)}`) : null;
      const title = heading?.textContent?.trim();
      return headingId && title ? [{ headingId, title }] : [];
    }),
  );
}

/** Brings a section's heading to the top of the view and gives it the keyboard focus. */
export function goToSection(headingId: string): void {
  const heading = document.getElementById(headingId);
  if (!heading) return;
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  heading.scrollIntoView({ block: 'start' });
  heading.focus({ preventScroll: true });
}

export function settingsPage(parts: HTMLElement[]): HTMLElement {
  const entries = settingsEntries(parts);
  const nav = h(
    'nav',
    { className: 'settings-nav', 'aria-label': t('settingsSections') },
    h(
      'ul',
      {},
      ...entries.map(({ headingId, title }) =>
        h(
          'li',
          {},
          h(
            'a',
            {
              href: `#${headingId}`,
              onclick: (event: Event) => {
                event.preventDefault();
                goToSection(headingId);
              },
            },
            title,
          ),
        ),
      ),
    ),
  );
  return h(
    'div',
    { className: 'settings settings-page', role: 'region', 'aria-labelledby': 'settings-heading' },
    h('h2', { id: 'settings-heading' }, t('settings')),
    nav,
    ...parts,
  );
}
