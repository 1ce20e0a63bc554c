import { describe, expect, it } from 'vitest';
import { examLocalBelongsToPost, postAndRoomOf } from './check-ins';

describe('the post and room of an exam local', () => {
  it('outside CE: the post up to the first dash, the room after it', () => {
    expect(postAndRoomOf('DEMO', 'DEMO.POSTO01-S2')).toEqual({ post: 'DEMO.POSTO01', room: 'S2' });
    expect(postAndRoomOf('DF', 'DF.POSTO01')).toEqual({ post: 'DF.POSTO01', room: null });
    expect(postAndRoomOf('DF', null)).toBeNull();
    expect(postAndRoomOf('DF', '-S1')).toBeNull();
  });

  it('CE: the whole local is the post, written with its CE. prefix once (spec 7)', () => {
    expect(postAndRoomOf('CE', 'FORTALEZA-CENTRO')).toEqual({
      post: 'CE.FORTALEZA-CENTRO',
      room: null,
    });
    expect(postAndRoomOf('CE', 'CE.FORTALEZA-CENTRO')).toEqual({
      post: 'CE.FORTALEZA-CENTRO',
      room: null,
    });
    // The same rule as the check-in's list of the post's exams.
    expect(examLocalBelongsToPost('CE', 'FORTALEZA-CENTRO', 'CE.FORTALEZA-CENTRO')).toBe(true);
  });
});
