/**
 * Checks what the user typed for an agent before anything is saved or connects: every refusal
 * names the field and says what would be accepted.
 */
import { checkBrokerUrl, checkToken } from '../acp/broker-url';
import type { AgentProfile, Dialect } from '../shared/settings';
import { t } from './i18n';

/** What the token field means: a new token, keep the stored one, or forget it. */
export type TokenChange = { set: string } | 'keep' | 'forget';

export interface AgentInput {
  name: string;
  url: string;
  token: string;
  /** Editing: the token field was left empty, keep the stored token unless told to forget it. */
  forgetToken?: boolean;
  acceptInsecureToken: boolean;
  serverName: string;
  dialect: Dialect;
  browserAccess: boolean;
  enabled: boolean;
  followCurrentTab: boolean;
}

export interface CheckedAgent {
  name: string;
  url: string;
  token: TokenChange;
  acceptInsecureToken: boolean;
  serverName: string;
  dialect: Dialect;
  browserAccess: boolean;
  enabled: boolean;
  followCurrentTab: boolean;
}

export type AgentField = 'name' | 'url' | 'token' | 'serverName';
export type AgentCheck = { ok: true; value: CheckedAgent } | { ok: false; field: AgentField; error: string };

/** Tool names are `<server>.<tool>`: the name must stay one simple word. */
const SERVER_NAME = /^[A-Za-z][\w-]{0,31}$/;

export function checkAgentInput(
  input: AgentInput,
  context: {
    takenNames: readonly string[];
    editing?: { hasToken: boolean };
    /** Why the organisation's policy forbids this broker, if it does. */
    brokerRefusal?(url: string): string | undefined;
  },
): AgentCheck {
  const name = input.name.trim();
  if (!name) return { ok: false, field: 'name', error: t('nameRequired') };
  if (name.length > 64) return { ok: false, field: 'name', error: t('nameTooLong') };
  if (context.takenNames.some((taken) => taken.toLowerCase() === name.toLowerCase())) {
    return { ok: false, field: 'name', error: t('nameTaken') };
  }
  const url = checkBrokerUrl(input.url);
  if (!url.ok) return { ok: false, field: 'url', error: url.error };
  const forbidden = context.brokerRefusal?.(url.value.url);
  if (forbidden) return { ok: false, field: 'url', error: forbidden };
  const token = checkToken(input.token);
  if (!token.ok) return { ok: false, field: 'token', error: token.error };
  let change: TokenChange = { set: token.value };
  if (context.editing && !token.value) change = input.forgetToken ? 'forget' : 'keep';
  const sendsToken = typeof change === 'object' ? change.set !== '' : change === 'keep' && context.editing!.hasToken;
  if (sendsToken && url.value.insecureForToken && !input.acceptInsecureToken) {
    return { ok: false, field: 'url', error: t('insecureTokenRefused') };
  }
  const serverName = input.serverName.trim() || 'tabwright';
  if (!SERVER_NAME.test(serverName)) return { ok: false, field: 'serverName', error: t('serverNameInvalid') };
  return {
    ok: true,
    value: {
      name,
      url: url.value.url,
      token: change,
      acceptInsecureToken: input.acceptInsecureToken,
      serverName,
      dialect: input.dialect,
      browserAccess: input.browserAccess,
      enabled: input.enabled,
      followCurrentTab: input.followCurrentTab,
    },
  };
}

/** Whether a change needs the connection remade (anything the broker sees), not just a rename. */
export function needsReconnect(before: AgentProfile, after: AgentProfile, token: TokenChange): boolean {
  return (
    token !== 'keep' ||
    before.url !== after.url ||
    before.serverName !== after.serverName ||
    before.dialect !== after.dialect ||
    before.browserAccess !== after.browserAccess ||
    before.enabled !== after.enabled ||
    before.acceptInsecureToken !== after.acceptInsecureToken
  );
}
