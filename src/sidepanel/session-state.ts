/**
 * What an agent's session says about itself between messages: its title, slash commands, current
 * mode, configuration and context usage. The roster and composer show it; it is not part of any
 * one message.
 */
import type { SessionConfigOption, SessionUpdate } from '@agentclientprotocol/sdk/unstable';
import type { SessionSetup } from '../acp/agent-connection';
import { t } from './i18n';

export interface SlashCommand {
  name: string;
  description: string;
  hint?: string;
}

export interface Choice {
  value: string;
  name: string;
  description?: string;
}

export interface ConfigView {
  id: string;
  name: string;
  /** The current value in words. */
  value: string;
  /** ACP's semantic category (`model`, `mode`, `thought_level`…), when the agent gives one. */
  category?: string;
  /** A select's choices and current value id, or a boolean toggle's state. */
  control: { type: 'select'; current: string; choices: Choice[] } | { type: 'boolean'; current: boolean } | undefined;
}

export interface SessionState {
  title?: string;
  modeId?: string;
  /** The modes the agent offers (`session/new`'s `modes`), in its order. */
  modes: Choice[];
  commands: SlashCommand[];
  config: ConfigView[];
  usage?: { used: number; size: number; cost?: { amount: number; currency: string } };
}

export function emptySessionState(): SessionState {
  return { commands: [], config: [], modes: [] };
}

/** Takes the modes and options the agent gave when the session started, resumed or loaded. */
export function applySessionSetup(state: SessionState, setup: SessionSetup): void {
  if (setup.modes) {
    state.modes = setup.modes.availableModes.map((mode) => ({
      value: mode.id,
      name: mode.name,
      ...(mode.description ? { description: mode.description } : {}),
    }));
    state.modeId = setup.modes.currentModeId;
  }
  if (setup.configOptions) state.config = setup.configOptions.map(configView);
}

/** The current mode's name, else its id. */
export function modeName(state: SessionState): string | undefined {
  if (!state.modeId) return undefined;
  return state.modes.find((mode) => mode.value === state.modeId)?.name ?? state.modeId;
}

/** The option the agent marks as the model choice. */
export function modelOption(state: SessionState): ConfigView | undefined {
  return state.config.find((option) => option.category === 'model');
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
      state.config = update.configOptions.map(configView);
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

export function configView(option: SessionConfigOption): ConfigView {
  const base = { id: option.id, name: option.name, ...(option.category ? { category: option.category } : {}) };
  if (option.type === 'boolean') {
    return {
      ...base,
      value: option.currentValue ? t('on') : t('off'),
      control: { type: 'boolean', current: option.currentValue },
    };
  }
  if (option.type !== 'select') return { ...base, value: '', control: undefined };
  const choices = option.options
    .flatMap((entry) => ('group' in entry ? entry.options : [entry]))
    .map((entry) => ({
      value: entry.value,
      name: entry.name,
      ...(entry.description ? { description: entry.description } : {}),
    }));
  const current = String(option.currentValue);
  return {
    ...base,
    value: choices.find((choice) => choice.value === current)?.name ?? current,
    control: { type: 'select', current, choices },
  };
}

/** Context used, as a whole percentage of the window. */
export function usagePercent(usage: NonNullable<SessionState['usage']>): number {
  return usage.size > 0 ? Math.min(100, Math.round((usage.used / usage.size) * 100)) : 0;
}
