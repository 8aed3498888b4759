import { describe, expect, it } from 'vitest';
import { GroupMoves, NEW_GROUP, NO_GROUP } from './group-moves';

describe('GroupMoves', () => {
  it('settles a report of a move Tabwright made, once; a second report of the same place is the person’s', () => {
    const moves = new GroupMoves();
    moves.expect(4, 11);
    expect(moves.settle(4, 11)).toBe(true);
    expect(moves.settle(4, 11)).toBe(false);
  });

  it('takes a move into a new group as reaching whatever group Chrome made, but not "no group"', () => {
    const moves = new GroupMoves();
    moves.expect(4, NEW_GROUP);
    expect(moves.settle(4, NO_GROUP)).toBe(false);
    expect(moves.settle(4, 23)).toBe(true);
  });

  it('counts the person’s move between Tabwright’s as theirs, and leaves Tabwright’s pending', () => {
    const moves = new GroupMoves();
    moves.expect(4, NO_GROUP);
    expect(moves.settle(4, 30)).toBe(false);
    expect(moves.settle(4, NO_GROUP)).toBe(true);
  });

  it('lets a later move overtake an earlier one that Chrome never reported', () => {
    const moves = new GroupMoves();
    moves.expect(4, 11);
    moves.expect(4, NO_GROUP);
    expect(moves.settle(4, NO_GROUP)).toBe(true);
    // The move into 11 was overtaken: a report of 11 now is the person dragging it back in.
    expect(moves.settle(4, 11)).toBe(false);
  });

  it('forgets a move Chrome refused, so the person’s own move there is not taken for it', () => {
    const moves = new GroupMoves();
    moves.expect(4, 11);
    moves.expect(4, NO_GROUP);
    moves.drop(4);
    expect(moves.settle(4, NO_GROUP)).toBe(false);
    expect(moves.settle(4, 11)).toBe(true);
    moves.expect(5, 11);
    moves.drop(5);
    expect(moves.settle(5, 11)).toBe(false);
  });
});
