/**
 * The tab in front, above the message box: a "Share this tab with <agent>" button per agent that
 * works in tabs of its own and per MCP client seen through a connected agent ("<client> through
 * <agent>"), and who has the tab with "Take back <title>". Shown while there is
 * something to share or take back; a browser page says why it cannot be shared.
 */
import type { FrontTab, ShareTarget, TabHolder, TabSharing } from '../../presence/tab-sharing';
import { h } from '../dom';
import { t } from '../i18n';

/** How the panel names who has a tab: the agent, or an MCP client through it. */
export function holderName(holder: TabHolder): string {
  if (holder.client === undefined) return holder.agentName;
  return t('clientThrough', holder.client ?? t('unnamedClient'), holder.agentName);
}

/** How the panel names who a tab can go to. */
export function targetName(target: ShareTarget): string {
  return target.client === undefined ? target.name : t('clientThrough', target.client, target.name);
}

export class ShareTabView {
  readonly element: HTMLElement;

  constructor(private readonly sharing: TabSharing) {
    this.element = h('section', { className: 'tab-sharing', 'aria-label': t('tabInFront'), hidden: true });
  }

  render(): void {
    const front = this.sharing.front();
    const content = this.#content(front);
    this.element.hidden = content.length === 0;
    // Redrawn on every change: the button the person is on keeps focus when it is still there.
    const focused = this.element.contains(document.activeElement)
      ? (document.activeElement as HTMLElement).dataset.control
      : undefined;
    this.element.replaceChildren(...content);
    if (focused) this.element.querySelector<HTMLElement>(`[data-control="${focused}"]`)?.focus();
  }

  #content(front: FrontTab): HTMLElement[] {
    if (front.kind === 'none') return [];
    if (front.kind === 'not-web') {
      // Said only where sharing is on offer at all.
      if (!front.shareWith.length) return [];
      return [h('p', { className: 'tab-sharing-note' }, t('shareNotWeb'))];
    }
    if (!front.holder && !front.shareWith.length) return [];
    const { tabId } = front;
    const buttons = front.shareWith.map((target) =>
      h(
        'button',
        { type: 'button', 'data-control': `share-${target.id}`, onclick: () => this.sharing.share(target.id, tabId) },
        t('shareTabWith', targetName(target)),
      ),
    );
    if (front.holder) {
      buttons.push(
        h(
          'button',
          {
            type: 'button',
            'data-control': 'take-back',
            'aria-label': t('takeBackTab', front.takeBack ?? front.title),
            onclick: () => this.sharing.takeBack(tabId),
          },
          t('takeBack'),
        ),
      );
    }
    return [
      h(
        'p',
        { className: 'tab-sharing-title' },
        h('span', { className: 'tab-title' }, front.title),
        front.holder ? h('span', { className: 'badge' }, t('sharedWith', holderName(front.holder))) : null,
      ),
      h('div', { className: 'actions' }, ...buttons),
    ];
  }
}
