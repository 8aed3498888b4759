/**
 * The change that lets an agent's refused call through, offered to the person beside the agent's
 * message: who asked, what the settings refused, and the fix as one button. Nothing changes until
 * the person presses it, and the agent is not told; its next call simply goes through.
 */
import type { SegmentOf } from '../chat-types';
import { h } from '../dom';
import { siteLabel } from '../gate-fixes';
import { t } from '../i18n';
import { showInvisible } from '../../shared/text/invisible';
import { icon } from './icons';

export interface FixHandlers {
  apply(): void;
}

export function fixCard(agentName: string, segment: SegmentOf<'fix'>, handlers: FixHandlers): HTMLElement {
  const { fix } = segment;
  const tool = showInvisible(segment.tool);
  const [said, action] =
    fix.kind === 'act-mode'
      ? [t('fixActModeOff', agentName, tool), t('fixTurnOnActMode')]
      : fix.kind === 'allow-site'
        ? [t('fixSiteNotAllowed', agentName, tool, fix.origin), t('fixAllowSite', siteLabel(fix.origin))]
        : [t('fixTabNotShared', fix.callerName, tool), t('shareTabWith', fix.callerName)];
  const card = h(
    'section',
    { className: 'card fix', role: 'group', 'aria-label': t('fixLabel'), 'data-fix': segment.id },
    h('p', { className: 'fix-said' }, icon('alert'), h('span', {}, said)),
  );
  if (segment.applied) {
    card.append(h('p', { className: 'outcome', role: 'status' }, t('fixDone', agentName)));
    return card;
  }
  card.append(
    h('div', { className: 'actions' }, h('button', { type: 'button', onclick: () => handlers.apply() }, action)),
  );
  if (segment.problem) card.append(h('p', { className: 'fix-problem', role: 'alert' }, segment.problem));
  return card;
}
