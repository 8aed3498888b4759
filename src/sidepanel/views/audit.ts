/**
 * The audit log view: every tool call, newest first, filterable by agent, tool, outcome and text,
 * each entry saying what it acted on in the card's words, how it was decided and how long the page
 * took apart from the person's think time, expandable to its (masked) arguments and the reason for
 * a refusal. Exports the whole log with its hash chain as JSON Lines, and verifies that chain.
 * Long logs render the newest few hundred matches, so it stays fast.
 */
import type { ChainVerdict } from '../../mcp-server/gates/audit-chain';
import type { AuditDecision, AuditEntry, GateName } from '../../mcp-server/gates/types';
import { filterAudit, type AuditLog, type AuditQuery, type OutcomeFilter } from '../../mcp-server/gates/audit-log';
import type { ForwardStatusSource } from '../../platform/chrome-forward-status';
import { h } from '../dom';
import { t } from '../i18n';
import { forwardingStatusView } from './forwarding-status';
import './gates.css';

export const AUDIT_RENDER_LIMIT = 300;

export interface AuditViewOptions {
  log: AuditLog;
  close(): void;
  /** Saves a file (an object URL and a download link in the panel). */
  download(fileName: string, text: string): void;
  /** Whether the log is forwarded to the organisation's collector, and how that goes. */
  forwarding?: ForwardStatusSource;
}

/** The gate that refused a call, in words; an entry written by a newer panel shows its code. */
const GATE: Record<GateName, () => string> = {
  arguments: () => t('gateArguments'),
  'kill-switch': () => t('gateKillSwitch'),
  exposure: () => t('gateExposure'),
  'act-mode': () => t('gateActMode'),
  target: () => t('gateTarget'),
  origin: () => t('gateOrigin'),
  screenshots: () => t('gateScreenshots'),
  confirmation: () => t('gateConfirmation'),
};

function outcomeText(entry: AuditEntry): string {
  if (entry.outcome === 'ok') return t('outcomeOk');
  if (entry.outcome === 'error') return t('outcomeError');
  if (entry.outcome === 'cancelled') return t('outcomeCancelled');
  const gate = entry.outcome.slice('refused:'.length);
  return t('outcomeRefused', Object.hasOwn(GATE, gate) ? GATE[gate as GateName]() : gate.replace('-', ' '));
}

const DECISION: Record<AuditDecision, () => string> = {
  read: () => t('decisionRead'),
  once: () => t('decisionOnce'),
  site: () => t('decisionSite'),
  granted: () => t('decisionGranted'),
  denied: () => t('decisionDenied'),
  'timed-out': () => t('decisionTimedOut'),
  withdrawn: () => t('decisionWithdrawn'),
  refused: () => t('decisionRefused'),
};

function decisionText(entry: AuditEntry): string | undefined {
  return entry.decision && Object.hasOwn(DECISION, entry.decision) ? DECISION[entry.decision]() : undefined;
}

export function chainText(verdict: ChainVerdict): string {
  if (verdict.ok) return t('auditChainHolds', String(verdict.entries), String(verdict.checkpoint.dropped));
  const position = String(verdict.position);
  if (verdict.reason === 'edited') return t('auditChainEdited', position);
  if (verdict.reason === 'unlinked') return t('auditChainUnlinked', position);
  return t('auditChainUnchained', position);
}

function entryItem(entry: AuditEntry): HTMLElement {
  const time = new Date(entry.time);
  const where = entry.destination ? `${entry.origin} → ${entry.destination}` : entry.origin;
  const decision = decisionText(entry);
  const waited = entry.waitMs ? ` · ${t('auditWaited', (entry.waitMs / 1000).toFixed(1))}` : '';
  return h(
    'li',
    { className: `audit-entry outcome-${entry.outcome.split(':')[0]}` },
    h(
      'details',
      {},
      h(
        'summary',
        {},
        h('time', { datetime: time.toISOString() }, time.toLocaleString()),
        ' · ',
        h('span', { className: 'audit-agent' }, entry.agent),
        ' · ',
        h('code', {}, `${entry.server}.${entry.tool}`),
        entry.elements?.length ? h('span', { className: 'audit-elements' }, ` ${entry.elements.join(', ')}`) : '',
        where ? ` · ${where}` : '',
        ' · ',
        h('strong', { className: 'audit-outcome' }, outcomeText(entry)),
        decision ? h('span', { className: 'audit-decision' }, ` (${decision})`) : '',
        ` · ${entry.durationMs} ms${waited}`,
      ),
      entry.url ? h('p', { className: 'audit-url' }, `${t('fieldLabel', t('auditPage'))} ${entry.url}`) : null,
      h('pre', { className: 'args' }, JSON.stringify(entry.args, null, 2)),
      entry.targets?.length
        ? h('p', { className: 'audit-targets' }, `${t('fieldLabel', t('confirmTargets'))} ${entry.targets.join(' · ')}`)
        : null,
      entry.detail ? h('p', { className: 'audit-detail' }, entry.detail) : null,
    ),
  );
}

function select(id: string, label: string, options: Array<[string, string]>, value: string) {
  const element = h(
    'select',
    { id },
    ...options.map(([v, text]) => h('option', { value: v, selected: v === value }, text)),
  );
  return { element, field: h('div', { className: 'field' }, h('label', { for: id }, label), element) };
}

export function auditView(options: AuditViewOptions): HTMLElement {
  const { log } = options;
  const query: AuditQuery = { outcome: 'all' };
  const list = h('ol', { className: 'audit-list', 'aria-label': t('auditEntries') });
  const summary = h('p', { className: 'hint', role: 'status', id: 'audit-summary' });
  const filters = h('form', { className: 'audit-filters', role: 'search' });
  let shown: AuditEntry[] = [];

  const outcome = select(
    'audit-outcome',
    t('filterOutcome'),
    [
      ['all', t('filterAll')],
      ['ok', t('outcomeOk')],
      ['error', t('outcomeError')],
      ['refused', t('filterRefused')],
      ['cancelled', t('outcomeCancelled')],
    ],
    'all',
  );
  outcome.element.addEventListener('change', () => {
    query.outcome = outcome.element.value as OutcomeFilter;
    renderList();
  });
  const text = h('input', { type: 'search', id: 'audit-text', autocomplete: 'off' });
  text.addEventListener('input', () => {
    query.text = text.value;
    renderList();
  });
  const choices = h('div', { className: 'audit-choices' });
  let choicesKey = '';

  /** Agent and tool lists follow the log; rebuilt only when a new name turns up. */
  const renderChoices = () => {
    const agents = [...new Set(log.entries.map((e) => e.agent))].sort();
    const tools = [...new Set(log.entries.map((e) => e.tool))].sort();
    const key = JSON.stringify([agents, tools]);
    if (key === choicesKey) return;
    choicesKey = key;
    const all: [string, string] = ['', t('filterAll')];
    const agent = select(
      'audit-agent',
      t('filterAgent'),
      [all, ...agents.map((a): [string, string] => [a, a])],
      query.agent ?? '',
    );
    const tool = select(
      'audit-tool',
      t('filterTool'),
      [all, ...tools.map((x): [string, string] => [x, x])],
      query.tool ?? '',
    );
    agent.element.addEventListener('change', () => {
      query.agent = agent.element.value || undefined;
      renderList();
    });
    tool.element.addEventListener('change', () => {
      query.tool = tool.element.value || undefined;
      renderList();
    });
    choices.replaceChildren(agent.field, tool.field);
  };
  filters.append(
    choices,
    outcome.field,
    h('div', { className: 'field' }, h('label', { for: text.id }, t('filterText')), text),
  );
  filters.addEventListener('submit', (event) => event.preventDefault());

  const renderList = () => {
    shown = filterAudit(log.entries, query).reverse();
    list.replaceChildren(...shown.slice(0, AUDIT_RENDER_LIMIT).map(entryItem));
    summary.textContent =
      shown.length > AUDIT_RENDER_LIMIT
        ? t('auditShowingSome', String(AUDIT_RENDER_LIMIT), String(shown.length), String(log.entries.length))
        : t('auditShowing', String(shown.length), String(log.entries.length));
  };

  const exportButton = h('button', { type: 'button', className: 'primary' }, t('exportAudit'));
  exportButton.addEventListener('click', async () => {
    // The whole chain, whatever the filter shows: a filtered export could not be verified.
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    options.download(`tabwright-audit-${stamp}.jsonl`, await log.exportChain());
  });
  const chainStatus = h('p', { className: 'hint audit-chain', role: 'status', id: 'audit-chain' });
  const verifyButton = h('button', { type: 'button' }, t('verifyAudit'));
  verifyButton.addEventListener('click', async () => {
    const verdict = await log.verify();
    chainStatus.textContent = chainText(verdict);
    chainStatus.classList.toggle('broken', !verdict.ok);
  });
  const clearButton = h('button', { type: 'button', className: 'danger' }, t('clearAudit'));
  let armed = false;
  clearButton.addEventListener('click', () => {
    // Two steps: a log is evidence, and one stray click should not erase it.
    if (!armed) {
      armed = true;
      clearButton.textContent = t('clearAuditConfirm');
      return;
    }
    void log.clear();
  });
  clearButton.addEventListener('blur', () => {
    armed = false;
    clearButton.textContent = t('clearAudit');
  });

  const root = h(
    'section',
    { className: 'audit', 'aria-labelledby': 'audit-heading' },
    // Heading, filters and actions stay in view above the newest entries as the list scrolls.
    h(
      'div',
      { className: 'audit-top' },
      h(
        'div',
        { className: 'audit-head' },
        h('h2', { id: 'audit-heading' }, t('auditLog')),
        h('button', { type: 'button', onclick: () => options.close() }, t('backToSettings')),
      ),
      filters,
      h('div', { className: 'actions' }, exportButton, verifyButton, clearButton),
      chainStatus,
      options.forwarding ? forwardingStatusView(options.forwarding) : null,
      summary,
    ),
    list,
  );
  const update = () => {
    renderChoices();
    renderList();
  };
  let mounted = false;
  const unsubscribe = log.onChange(() => {
    if (root.isConnected) mounted = true;
    else if (mounted) return unsubscribe();
    update();
  });
  update();
  // Pick up what other windows' panels logged since this one loaded.
  void log.load();
  return root;
}
