/**
 * What an agent's session says about itself between messages: its title, slash commands, current
 * mode, configuration and context usage. The roster and composer show it; it is not part of any
 * one message.
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk/unstable';
import { t } from './i18n';

export interface SlashCommand {
  name: string;
  description: string;
  hint?: string;
}

export interface ConfigView {
  id: string;
  name: string;
  value: string;
}

export interface SessionState {
  title?: string;
  modeId?: string;
  commands: SlashCommand[];
  config: ConfigView[];
  usage?: { used: number; size: number; cost?: { amount: number; currency: string } };
}

export function emptySessionState(): SessionState {
  return { commands: [], config: [] };
}

export type SessionChange = 'title' | 'mode' | 'commands' | 'config' | 'usage';

/** Applies a session-level update; says what changed, or undefined for message-level kinds. */
export function applySessionState(state: SessionState, update: SessionUpdate): SessionChange | undefined {
  switch (update.sessionUpdate) {
    case 'available_commands_update':
      state.commands = update.availableCommands.map((command) => ({
        name: command.name.replace(/^\//, ''),
        description: command.description,
        ...(command.input?.hint ? { hint: command.input.hint } : {}),
      }));
      return 'commands';
    case 'current_mode_update':
      state.modeId = update.currentModeId;
      return 'mode';
    case 'config_option_update':
      state.config = update.configOptions.map((option) => ({
        id: option.id,
        name: option.name,
        value: configValueName(option),
      }));
      return 'config';
    case 'session_info_update':
      if (update.title !== undefined) {
        if (update.title) state.title = update.title;
        else delete state.title;
      }
      return 'title';
    case 'usage_update':
      state.usage = {
        used: update.used,
        size: update.size,
        ...(update.cost ? { cost: { amount: update.cost.amount, currency: update.cost.currency } } : {}),
      };
      return 'usage';
    default:
      return undefined;
  }
}

type ConfigOption = Extract<SessionUpdate, { sessionUpdate: 'config_option_update' }>['configOptions'][number];

/** The human name of an option's current value (a select shows the chosen option's name). */
function configValueName(option: ConfigOption): string {
  if (option.type === 'boolean') return option.currentValue ? t('on') : t('off');
  if (option.type !== 'select') return '';
  const flat = option.options.flatMap((entry) => ('group' in entry ? entry.options : [entry]));
  return flat.find((entry) => entry.value === option.currentValue)?.name ?? String(option.currentValue);
}

/** Context used, as a whole percentage of the window. */
export function usagePercent(usage: NonNullable<SessionState['usage']>): number {
  return usage.size > 0 ? Math.min(100, Math.round((usage.used / usage.size) * 100)) : 0;
}
