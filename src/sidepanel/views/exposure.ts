/**
 * What each agent is offered: browser access at all, and which servers (namespaces) it is
 * declared, at most 8 per session. Taking access away applies to the next call; a server offered
 * is declared to a connected agent at once, and one taken away stays declared until the agent
 * reconnects, so the view offers a reconnect then.
 */
import { exposureOf, MAX_DECLARED_SERVERS } from '../../mcp-server/gates/exposure';
import { h } from '../dom';
import { t } from '../i18n';

export interface ExposedAgent {
  id: string;
  name: string;
  browserAccess: boolean;
  hiddenServers: readonly string[];
}

export interface ExposureActions {
  agents(): ExposedAgent[];
  /** Every server the panel could declare to this agent, in declaration order. */
  candidates(agentId: string): string[];
  /** The names declared when the agent's current session started (undefined when not connected yet). */
  declaredNow(agentId: string): readonly string[] | undefined;
  setBrowserAccess(agentId: string, on: boolean): Promise<void>;
  setOffered(agentId: string, server: string, on: boolean): Promise<void>;
  reconnect(agentId: string): void;
}

function agentExposure(actions: ExposureActions, agent: ExposedAgent, refresh: () => void): HTMLElement {
  const candidates = actions.candidates(agent.id);
  const exposure = exposureOf(agent, candidates);
  const accessId = `access-${agent.id}`;
  const access = h('input', { type: 'checkbox', role: 'switch', id: accessId, checked: agent.browserAccess });
  access.addEventListener('change', () => void actions.setBrowserAccess(agent.id, access.checked).then(refresh));
  const servers = candidates.map((server) => {
    const id = `offer-${agent.id}-${server}`;
    const box = h('input', {
      type: 'checkbox',
      id,
      checked: !agent.hiddenServers.includes(server),
      disabled: !agent.browserAccess,
    });
    box.addEventListener('change', () => void actions.setOffered(agent.id, server, box.checked).then(refresh));
    const over = exposure.overLimit.includes(server);
    return h(
      'li',
      {},
      box,
      h('label', { for: id }, t('offerServer', server, agent.name)),
      over ? h('span', { className: 'site-status' }, t('overServerLimit', String(MAX_DECLARED_SERVERS))) : null,
    );
  });
  const now = actions.declaredNow(agent.id);
  // A server newly offered reaches the agent by itself; one taken away stays declared (refusing
  // every call) until the agent reconnects, which only the person can choose.
  const stale = now !== undefined && now.some((server) => !exposure.declared.includes(server));
  return h(
    'fieldset',
    { className: 'exposure' },
    h('legend', {}, agent.name),
    h('div', { className: 'field checkbox' }, access, h('label', { for: accessId }, t('browserAccessFor', agent.name))),
    h('ul', { 'aria-label': t('serversFor', agent.name) }, ...servers),
    h(
      'p',
      { className: 'hint', 'data-testid': `declared-${agent.id}` },
      t('declaredCount', String(exposure.declared.length), String(MAX_DECLARED_SERVERS)),
    ),
    stale
      ? h(
          'p',
          { className: 'notice', role: 'status' },
          t('exposureNextSession', agent.name),
          ' ',
          h('button', { type: 'button', onclick: () => actions.reconnect(agent.id) }, t('reconnectAgent', agent.name)),
        )
      : null,
  );
}

export function exposureSection(actions: ExposureActions, refresh: () => void): HTMLElement {
  const agents = actions.agents();
  return h(
    'section',
    { className: 'settings-group', 'aria-labelledby': 'exposure-heading' },
    h('h3', { id: 'exposure-heading' }, t('exposureHeading')),
    h('p', { className: 'hint' }, t('exposureHint', String(MAX_DECLARED_SERVERS))),
    ...agents.map((agent) => agentExposure(actions, agent, refresh)),
  );
}
