/**
 * "Set by your organisation": which policy keys the panel read and what each set, and the keys it
 * could not use — Chrome drops a value that fails the schema before the panel sees it, so an
 * operator compares this list with chrome://policy. Nothing is shown without a policy.
 */
import type { ReadPolicy } from '../../shared/policy';
import { h } from '../dom';
import { t } from '../i18n';

/** The forwarding token is a secret: shown only as set. */
const shown = (key: string, value: unknown) =>
  key === 'AuditForwarding'
    ? JSON.stringify({ ...(value as object), token: '…' })
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);

export function managedSection(read: ReadPolicy | undefined, forwarding?: HTMLElement): HTMLElement | null {
  if (!read || (!read.read.length && !read.ignored.length)) return null;
  return h(
    'section',
    { className: 'settings-group managed-policy', 'aria-labelledby': 'managed-heading' },
    h('h3', { id: 'managed-heading' }, t('setByOrganisationHeading')),
    h('p', { className: 'hint' }, t('setByOrganisationHint')),
    h(
      'ul',
      { 'aria-label': t('policyKeysRead') },
      ...read.read.map((key) => h('li', {}, `${key}: ${shown(key, read.policy[key])}`)),
    ),
    read.ignored.length ? h('p', { className: 'field-error' }, t('policyKeysIgnored', read.ignored.join(', '))) : null,
    forwarding ?? null,
  );
}
