/**
 * What a call the person is asked about would do, as one sentence in their language: "Demo wants
 * to click "Place order" on shop.example". The element is named as the page describes it (looked
 * up just before asking), through the text function that keeps page text on one line and unable
 * to close its quotes, so a page cannot word its own sentence. Pure: the caller passes the
 * message lookup, so each language can be checked.
 */
import type { MessageKey } from './i18n';
import { siteLabel } from './gate-fixes';
import { showInvisible } from '../shared/text/invisible';
import { clip, neutraliseText } from '../shared/text/line';

export type Say = (key: MessageKey, ...substitutions: string[]) => string;

export interface CallToWord {
  agentName: string;
  tool: string;
  args: Readonly<Record<string, unknown>>;
  /** The element the call acts on, as the page describes it; `null`: the page no longer has it; absent: not looked up. */
  element?: { role: string; name: string } | null;
  /** Where the call acts (an origin), and where a navigation would take the tab. */
  origin: string;
  destination?: string;
}

const NAME_MAX = 80;

/** Page or agent text as one short line a person reads: invisible characters shown, quotes that cannot close early. */
export function shownName(text: string): string {
  return clip(neutraliseText(showInvisible(text)), NAME_MAX);
}

/** Tools that act on one element, and how each says so. */
const ON_ELEMENT: Record<string, MessageKey> = {
  click: 'callClick',
  type: 'callType',
  hover: 'callHover',
  select_option: 'callSelect',
  upload_file: 'callUpload',
  drag: 'callDrag',
};

/** Tools that act on a page or tab as a whole. */
const ON_PAGE: Record<string, MessageKey> = {
  fill_form: 'callFillForm',
  close_tab: 'callCloseTab',
  history: 'callHistory',
  reload: 'callReload',
  new_tab: 'callNewTab',
};

export function callInWords(call: CallToWord, say: Say): string {
  const agent = shownName(call.agentName);
  const site = call.origin ? siteLabel(call.origin) : '—';
  const elementText = () => {
    if (call.element === undefined) return say('callSomeElement');
    if (call.element === null) return say('callElementMissing');
    const { role, name } = call.element;
    return name ? say('callElementNamed', shownName(name)) : say('callElementUnnamed', shownName(role));
  };
  if (Object.hasOwn(ON_ELEMENT, call.tool)) return say(ON_ELEMENT[call.tool]!, agent, elementText(), site);
  if (call.tool === 'press_key' && typeof call.args.key === 'string') {
    return say('callPressKey', agent, shownName(call.args.key), site);
  }
  if (call.tool === 'navigate') {
    const to = call.destination ? siteLabel(call.destination) : site;
    return to === site ? say('callNavigateWithin', agent, site) : say('callNavigate', agent, site, to);
  }
  if (call.tool === 'new_tab') return say('callNewTab', agent, call.destination ? siteLabel(call.destination) : site);
  if (Object.hasOwn(ON_PAGE, call.tool)) return say(ON_PAGE[call.tool]!, agent, site);
  return say('callTool', agent, shownName(call.tool), site);
}
