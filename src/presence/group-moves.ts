/**
 * The group moves Tabwright asked Chrome for and Chrome has not reported yet. Chrome reports every
 * change of a tab's group the same way, whoever made it; with groups standing for who owns a tab,
 * a move Tabwright made must not be read as the person sharing or taking back that tab.
 */

/** Chrome's "no group". */
export const NO_GROUP = -1;

/** A move into a group Chrome is making now, whose id is not known until it answers. */
export const NEW_GROUP = 'new';

type Target = number | typeof NEW_GROUP;

const reaches = (target: Target, groupId: number) =>
  target === groupId || (target === NEW_GROUP && groupId !== NO_GROUP);

export class GroupMoves {
  /** Tab id → where Tabwright is moving it, oldest move first (Chrome reports them in order). */
  readonly #pending = new Map<number, Target[]>();

  /** Tabwright is about to move the tab into `groupId` (`NO_GROUP`: out of any group). */
  expect(tabId: number, groupId: Target): void {
    this.#pending.set(tabId, [...(this.#pending.get(tabId) ?? []), groupId]);
  }

  /** Chrome refused the latest move of the tab: no report will come for it. */
  drop(tabId: number): void {
    const moves = this.#pending.get(tabId)?.slice(0, -1) ?? [];
    if (moves.length) this.#pending.set(tabId, moves);
    else this.#pending.delete(tabId);
  }

  /**
   * Chrome reports the tab is now in `groupId`: true when that is a move Tabwright made, which
   * this report settles. Anything else is someone else's move; Tabwright's still pending stay so.
   */
  settle(tabId: number, groupId: number): boolean {
    const moves = this.#pending.get(tabId) ?? [];
    const at = moves.findIndex((target) => reaches(target, groupId));
    if (at < 0) return false;
    // Reports come in order: moves before this one were overtaken without a report of their own.
    const rest = moves.slice(at + 1);
    if (rest.length) this.#pending.set(tabId, rest);
    else this.#pending.delete(tabId);
    return true;
  }
}
