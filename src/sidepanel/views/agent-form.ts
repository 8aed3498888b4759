/**
 * The agent form, for adding an agent and for editing one: name, broker URL, token (masked, never
 * shown back), declared server name, tunnel dialect, browser access, whether it connects, and
 * whether it works in the tab in front ("Follow my current tab") or in tabs of its own.
 * Everything is checked before anything is saved; a refusal names the field and what would work.
 */
import type { AgentProfile, Dialect } from '../../shared/settings';
import { checkBrokerUrl } from '../../acp/broker-url';
import { checkAgentInput, type AgentField, type CheckedAgent } from '../agent-input';
import { h } from '../dom';
import { t } from '../i18n';

export interface NewAgent {
  name: string;
  url: string;
  token: string;
  acceptInsecureToken: boolean;
  serverName: string;
  dialect: Dialect;
  browserAccess: boolean;
  enabled: boolean;
  followCurrentTab: boolean;
}

let formSeq = 0;

interface FormParts {
  form: HTMLFormElement;
  read(): Parameters<typeof checkAgentInput>[0];
  showError(field: AgentField, error: string): void;
  clearErrors(): void;
  reset(): void;
  submit: HTMLButtonElement;
}

function buildForm(options: {
  profile?: AgentProfile;
  hasToken?: boolean;
  defaultUrl?: string;
  defaultName?: () => string;
  label: string;
  /** The organisation's policy turns "Follow my current tab" off: shown off and locked, the person's choice kept. */
  followLocked?: boolean;
}): FormParts {
  const id = `agent-form-${++formSeq}`;
  const editing = options.profile !== undefined;
  const profile = options.profile;
  const errors = new Map<AgentField, HTMLElement>();
  const field = (
    key: AgentField | 'dialect',
    label: string,
    input: HTMLInputElement | HTMLSelectElement,
    hint?: string,
  ) => {
    input.id = `${id}-${key}`;
    const hintElement = hint ? h('p', { className: 'hint', id: `${id}-${key}-hint` }, hint) : null;
    const error = h('p', { className: 'field-error', id: `${id}-${key}-error`, role: 'alert' });
    if (key !== 'dialect') errors.set(key, error);
    input.setAttribute('aria-describedby', [hintElement?.id, error.id].filter(Boolean).join(' '));
    return h('div', { className: 'field' }, h('label', { for: input.id }, label), input, hintElement, error);
  };
  const check = (key: string, label: string, checked: boolean, hint?: string, locked = false) => {
    const box = h('input', { type: 'checkbox', id: `${id}-${key}`, checked, disabled: locked });
    const hintElement = hint ? h('p', { className: 'hint', id: `${id}-${key}-hint` }, hint) : null;
    if (hintElement) box.setAttribute('aria-describedby', hintElement.id);
    return {
      box,
      element: h('div', { className: 'field checkbox' }, box, h('label', { for: box.id }, label), hintElement),
    };
  };

  const name = h('input', {
    type: 'text',
    autocomplete: 'off',
    required: true,
    maxlength: 64,
    value: profile?.name ?? options.defaultName?.() ?? '',
  });
  const url = h('input', {
    type: 'url',
    autocomplete: 'off',
    required: true,
    value: profile?.url ?? options.defaultUrl ?? '',
    placeholder: 'ws://127.0.0.1:8765/acp',
  });
  const token = h('input', {
    type: 'password',
    autocomplete: 'off',
    placeholder: editing && options.hasToken ? t('tokenStoredPlaceholder') : '',
  });
  const forget = check('forget-token', t('forgetToken'), false);
  const insecure = check('insecure', t('acceptInsecure'), profile?.acceptInsecureToken ?? false);
  // Asked only when the token would cross the network in the clear: never for a loopback ws:// URL.
  const offerInsecure = () => {
    const checked = checkBrokerUrl(url.value);
    insecure.element.hidden = !insecure.box.checked && !(checked.ok && checked.value.insecureForToken);
  };
  url.addEventListener('input', offerInsecure);
  offerInsecure();
  const serverName = h('input', {
    type: 'text',
    autocomplete: 'off',
    spellcheck: false,
    maxlength: 32,
    value: profile?.serverName ?? 'tabwright',
  });
  const dialect = h(
    'select',
    {},
    h('option', { value: 'both' }, t('dialectBoth')),
    h('option', { value: 'a' }, t('dialectOpenAbTunnel')),
    h('option', { value: 'b' }, t('dialectAcpSdkBinding')),
  );
  dialect.value = profile?.dialect ?? 'both';
  const browserAccess = check('browser', t('browserAccess'), profile?.browserAccess ?? true, t('browserAccessHint'));
  const enabled = check('enabled', t('agentEnabled'), profile?.enabled ?? true, t('agentEnabledHint'));
  const followLocked = options.followLocked ?? false;
  const follow = followLocked
    ? check('follow', t('followCurrentTab'), false, `${t('setByOrganisation')} ${t('followCurrentTabHint')}`, true)
    : check('follow', t('followCurrentTab'), profile?.followCurrentTab ?? false, t('followCurrentTabHint'));

  const more = h(
    'details',
    { className: 'more-options', open: editing },
    h('summary', {}, t('moreOptions')),
    field('serverName', t('serverName'), serverName, t('serverNameHint')),
    field('dialect', t('dialect'), dialect, t('dialectHint')),
    browserAccess.element,
    enabled.element,
  );
  const submit = h('button', { type: 'submit', className: 'primary' }, options.label);
  const form = h(
    'form',
    { className: 'agent-form', novalidate: true },
    field('name', t('agentName'), name),
    field('url', t('brokerUrl'), url),
    field('token', t('token'), token, editing && options.hasToken ? t('tokenKeepHint') : t('tokenHint')),
    editing && options.hasToken ? forget.element : null,
    insecure.element,
    follow.element,
    more,
    h('div', { className: 'form-actions' }, submit),
  );
  const inputs: Record<AgentField, HTMLInputElement> = { name, url, token, serverName };
  return {
    form,
    submit,
    read: () => ({
      name: name.value,
      url: url.value,
      token: token.value,
      forgetToken: forget.box.checked,
      acceptInsecureToken: insecure.box.checked,
      serverName: serverName.value,
      dialect: dialect.value as Dialect,
      browserAccess: browserAccess.box.checked,
      enabled: enabled.box.checked,
      followCurrentTab: followLocked ? (profile?.followCurrentTab ?? false) : follow.box.checked,
    }),
    showError: (key, error) => {
      errors.get(key)!.textContent = error;
      if (key === 'serverName') more.open = true;
      inputs[key].setAttribute('aria-invalid', 'true');
      inputs[key].focus();
    },
    clearErrors: () => {
      for (const error of errors.values()) error.textContent = '';
      for (const input of Object.values(inputs)) input.removeAttribute('aria-invalid');
    },
    reset: () => {
      name.value = options.defaultName?.() ?? '';
      token.value = '';
    },
  };
}

/** `base`, or `base 2`, `base 3`… : the first that no agent is called yet. */
export function freeName(base: string, taken: readonly string[]): string {
  const names = new Set(taken.map((name) => name.toLowerCase()));
  let name = base;
  for (let n = 2; names.has(name.toLowerCase()); n++) name = `${base} ${n}`;
  return name;
}

/** The "add an agent" form. */
export function agentForm(options: {
  defaultUrl?: string;
  takenNames(): readonly string[];
  brokerRefusal?(url: string): string | undefined;
  followLocked?(): boolean;
  onSubmit(agent: NewAgent): Promise<void>;
}): HTMLFormElement {
  const parts = buildForm({
    followLocked: options.followLocked?.() ?? false,
    defaultUrl: options.defaultUrl,
    defaultName: () => freeName(t('defaultAgentName'), options.takenNames()),
    label: t('addAgent'),
  });
  parts.form.addEventListener('submit', (event) => {
    event.preventDefault();
    parts.clearErrors();
    const checked = checkAgentInput(parts.read(), {
      takenNames: options.takenNames(),
      ...(options.brokerRefusal ? { brokerRefusal: options.brokerRefusal } : {}),
    });
    if (!checked.ok) return parts.showError(checked.field, checked.error);
    const token = typeof checked.value.token === 'object' ? checked.value.token.set : '';
    parts.submit.disabled = true;
    void options.onSubmit({ ...checked.value, token }).finally(() => {
      parts.submit.disabled = false;
      parts.reset();
    });
  });
  return parts.form;
}

/** Editing an existing agent; the token field stays empty and keeps the stored token unless typed over. */
export function agentEditor(options: {
  profile: AgentProfile;
  hasToken: boolean;
  takenNames(): readonly string[];
  brokerRefusal?(url: string): string | undefined;
  followLocked?(): boolean;
  onSave(agent: CheckedAgent): Promise<void>;
  onCancel(): void;
}): HTMLFormElement {
  const parts = buildForm({
    profile: options.profile,
    hasToken: options.hasToken,
    label: t('saveAgent'),
    followLocked: options.followLocked?.() ?? false,
  });
  parts.form.setAttribute('aria-label', t('editAgent', options.profile.name));
  const cancel = h('button', { type: 'button', onclick: () => options.onCancel() }, t('cancel'));
  parts.submit.after(cancel);
  parts.form.addEventListener('submit', (event) => {
    event.preventDefault();
    parts.clearErrors();
    const checked = checkAgentInput(parts.read(), {
      takenNames: options.takenNames(),
      editing: { hasToken: options.hasToken },
      ...(options.brokerRefusal ? { brokerRefusal: options.brokerRefusal } : {}),
    });
    if (!checked.ok) return parts.showError(checked.field, checked.error);
    parts.submit.disabled = true;
    void options.onSave(checked.value).finally(() => (parts.submit.disabled = false));
  });
  return parts.form;
}
