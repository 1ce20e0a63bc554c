/**
 * Landmarks for screen tests of the guided capture, in place of face-api:
 * a challenge as the server answers it, a landmarker whose "person" the
 * test turns by hand, and one whose person does what the screen asks (it
 * reads the modal's `data-face-target`), for the screens that only need a
 * take to go through. `vi.mock('…/lib/face-landmarks', () =>
 * import('…/test/fake-landmarker'))` puts the cooperative one behind the
 * modal's default loader.
 */
import type { FaceChallenge, FaceMove } from '@exame/shared';
import type { FaceFound, Landmarker } from '../lib/face-landmarks';
import { faceLandmarks, type FacePose } from './face-landmarks';

export const FAKE_CHALLENGE_ID = '7a1c9e52-3b4d-4f6a-8e2b-1c0d9f8e7a65';

export function fakeChallenge(
  steps: FaceMove[] = ['left', 'up'],
  challengeId = FAKE_CHALLENGE_ID,
): FaceChallenge {
  return {
    challengeId,
    steps,
    pictures: steps.length + 2,
    expiresAt: new Date(Date.now() + 60_000).toISOString(),
  };
}

/** The face's box in a 640x400 frame, inside the modal's face frame. */
const BOX = { x: 250, y: 100, width: 140, height: 170 };

function found(pose: FacePose, faces = 1): FaceFound {
  return { landmarks: faceLandmarks(pose), box: BOX, faces, ms: 5 };
}

/** A person the test moves: `person.pose = { yaw: 20, pitch: 0 }`, `person.present = false`. */
export function manualLandmarker() {
  const person = { pose: { yaw: 0, pitch: 0 } as FacePose, present: true, faces: 1 };
  const landmarker: Landmarker = {
    backend: 'test',
    detect: async () => (person.present ? found(person.pose, person.faces) : null),
  };
  return { person, landmarker, load: async () => landmarker };
}

const POSES: Record<FaceMove, FacePose> = {
  left: { yaw: 22, pitch: 0 },
  right: { yaw: -22, pitch: 0 },
  up: { yaw: 0, pitch: 18 },
  down: { yaw: 0, pitch: -18 },
};

/** A person who does what the screen asks: the pose of the modal's current target. */
export const cooperativeLandmarker: Landmarker = {
  backend: 'test',
  detect: async () => {
    const target = document
      .querySelector('[data-face-target]')
      ?.getAttribute('data-face-target') as FaceMove | 'neutral' | 'return' | null | undefined;
    return found(target && target in POSES ? POSES[target as FaceMove] : { yaw: 0, pitch: 0 });
  },
};

/** The module's exports, as `vi.mock` takes them. */
export const loadLandmarker = async (): Promise<Landmarker> => cooperativeLandmarker;
export const detect = cooperativeLandmarker.detect;
