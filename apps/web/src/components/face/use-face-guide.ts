/**
 * The guided take of the facial-validation modal. `start` asks
 * the caller for a challenge, then takes the pictures in order:
 *
 * - neutral: one face, inside the face frame, held ~0.4 s; its landmarks
 *   become the reference of the take;
 * - each step: the picture is taken when `relativePose(reference, now)`
 *   reaches the step's goal in the direction asked (face-guide.ts);
 * - return: the picture is taken when the head is back within
 *   RETURN_GOAL_DEGREES of the reference (FACE_RETURN_MAX_DEGREES less the
 *   screen's margin), held ~0.4 s.
 *
 * Each picture is the very frame the landmarks were read from (drawn on the
 * canvas, read, then encoded). No picture waits forever: past its share of
 * the challenge's lifetime (at most ~12 s) it is taken anyway (the best
 * frame seen for it: the furthest turn, the nearest return), and the
 * server, not the browser, decides and explains. Without landmarks (the
 * model did not load: offline, an old device) the guide is timed: each
 * prompt shows a 3-2-1 countdown and the picture is taken at its end.
 */
import {
  FACE_CHALLENGE_TTL_MS,
  looksAhead,
  moveAmount,
  relativePose,
  type FaceChallenge,
} from '@exame/shared';
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { FaceFound, Landmarker, LandmarkerLoader } from '../../lib/face-landmarks';
import { drawFrame, encodeFrame as encode } from './camera';
import {
  GUIDE_HINTS,
  challengeDeadline,
  isBack,
  moveGoal,
  phaseTimeout,
  placement,
  takeTargets,
  type GuideTarget,
} from './face-guide';

export type GuideTimings = {
  /** Least time between the starts of two detections (~6 a second at most). */
  detectIntervalMs: number;
  /** How long the neutral face must stay placed (and the return stay back) before its picture. */
  neutralHoldMs: number;
  /** Most and least time a picture waits before it is taken anyway. */
  stepMaxMs: number;
  stepMinMs: number;
  /** Time kept, out of the challenge's lifetime, to review and confirm the take. */
  reviewReserveMs: number;
  countdownSeconds: number;
  /** Length of one count of the countdown. */
  countdownStepMs: number;
  /** How long the start waits for the landmark model before guiding by countdown. */
  landmarkerWaitMs: number;
};

export const DEFAULT_GUIDE_TIMINGS: GuideTimings = {
  detectIntervalMs: 160,
  neutralHoldMs: 400,
  stepMaxMs: 12_000,
  stepMinMs: 3_000,
  reviewReserveMs: 12_000,
  countdownSeconds: 3,
  countdownStepMs: 1000,
  landmarkerWaitMs: 20_000,
};

/** How a picture was taken: its pose seen, at its timeout, or at the end of a countdown. */
export type PictureStatus = 'seen' | 'timed-out' | 'timed';

export type GuideView = {
  stage: 'idle' | 'preparing' | 'guiding' | 'done';
  challenge: FaceChallenge | null;
  targets: GuideTarget[];
  /** The picture being taken (targets.length once the take is done). */
  index: number;
  statuses: PictureStatus[];
  pictures: string[];
  mode: 'landmarks' | 'timed';
  countdown: number | null;
  hint: string | null;
  /** 0..1 of the movement asked, null outside a movement. */
  progress: number | null;
  /** The face is found and placed in the frame. */
  placed: boolean;
  deadline: number | null;
  /** Why the challenge could not be had. */
  error: string | null;
  /** Detections run and their median time, for the log. */
  detections: number;
  detectMs: number | null;
  /** The furthest turn read in each movement, degrees (for the log). */
  peaks: number[];
};

const INITIAL: GuideView = {
  stage: 'idle',
  challenge: null,
  targets: [],
  index: 0,
  statuses: [],
  pictures: [],
  mode: 'landmarks',
  countdown: null,
  hint: null,
  progress: null,
  placed: false,
  deadline: null,
  error: null,
  detections: 0,
  detectMs: null,
  peaks: [],
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error('O modelo facial demorou demais para carregar.')), ms),
    ),
  ]);
}

type Shot = {
  picture: string;
  status: PictureStatus;
  landmarks: number[] | null;
  lost?: boolean;
  /** A movement's furthest turn read, in degrees (for the log). */
  peak?: number;
};

export function useFaceGuide(options: {
  opened: boolean;
  videoRef: RefObject<HTMLVideoElement | null>;
  canvasRef: RefObject<HTMLCanvasElement | null>;
  loader: LandmarkerLoader;
  requestChallenge: () => Promise<FaceChallenge>;
  timings?: Partial<GuideTimings>;
  log: (event: string, details?: Record<string, unknown>) => void;
}) {
  const { opened, videoRef, canvasRef, loader, requestChallenge, log } = options;
  const timings = { ...DEFAULT_GUIDE_TIMINGS, ...options.timings };
  const [view, setView] = useState<GuideView>(INITIAL);
  const [now, setNow] = useState(() => Date.now());
  const runRef = useRef(0);
  const landmarkerRef = useRef<Promise<Landmarker> | null>(null);
  // The latest props for the running take, without restarting it.
  const latest = useRef({ requestChallenge, log, timings });
  useEffect(() => {
    latest.current = { requestChallenge, log, timings };
  });

  // The model loads when the modal opens, while the person settles in front of the camera.
  useEffect(() => {
    if (!opened || landmarkerRef.current) return;
    const began = performance.now();
    const loading = loader();
    landmarkerRef.current = loading;
    loading.then(
      (landmarker) =>
        latest.current.log('landmarks_ready', {
          backend: landmarker.backend,
          loadMs: Math.round(performance.now() - began),
        }),
      (error: unknown) => {
        console.error('[câmera] modelo facial indisponível', error);
        latest.current.log('landmarks_unavailable', { message: String(error).slice(0, 300) });
      },
    );
  }, [opened, loader]);

  // A closed modal or a new take ends the running one.
  useEffect(() => () => void (runRef.current += 1), []);

  useEffect(() => {
    if (view.deadline === null || view.stage === 'idle') return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [view.deadline, view.stage]);

  const reset = useCallback(() => {
    runRef.current += 1;
    setView(INITIAL);
  }, []);

  const start = useCallback(async () => {
    const run = (runRef.current += 1);
    const alive = () => runRef.current === run;
    const patch = (next: Partial<GuideView>) => {
      if (alive()) setView((current) => ({ ...current, ...next }));
    };
    const { timings: t } = latest.current;
    setView({ ...INITIAL, stage: 'preparing' });

    const landmarker = await withTimeout(
      landmarkerRef.current ?? Promise.reject(new Error('sem modelo')),
      t.landmarkerWaitMs,
    ).catch(() => null);
    if (!alive()) return;
    const requestedAt = Date.now();
    let challenge: FaceChallenge;
    try {
      challenge = await latest.current.requestChallenge();
    } catch (error) {
      patch({ stage: 'idle', error: error instanceof Error ? error.message : String(error) });
      return;
    }
    if (!alive()) return;
    const deadline = challengeDeadline(challenge.expiresAt, FACE_CHALLENGE_TTL_MS, requestedAt);
    const targets = takeTargets(challenge.steps);
    let mode: GuideView['mode'] = landmarker ? 'landmarks' : 'timed';
    let reference: number[] | null = null;
    const pictures: string[] = [];
    const statuses: PictureStatus[] = [];
    const times: number[] = [];
    const peaks: number[] = [];
    setNow(Date.now());
    patch({ stage: 'guiding', challenge, targets, index: 0, mode, deadline });

    const countdown = async (): Promise<Shot | null> => {
      for (let second = t.countdownSeconds; second > 0; second -= 1) {
        patch({ countdown: second });
        await sleep(t.countdownStepMs);
        if (!alive()) return null;
      }
      patch({ countdown: null });
      const video = videoRef.current;
      const canvas = canvasRef.current;
      if (!video || !canvas) return null;
      drawFrame(video, canvas);
      return { picture: encode(canvas), status: 'timed', landmarks: null };
    };

    /**
     * Reads the face until the picture's condition is met. Past the timeout
     * the picture is taken anyway: the best frame seen for it (the furthest
     * turn, the nearest return, a placed face), else the current one.
     */
    const follow = async (target: GuideTarget, timeoutMs: number): Promise<Shot | null> => {
      const until = Date.now() + timeoutMs;
      let holdSince: number | null = null;
      let best: { score: number; shot: Shot } | null = null;
      let peak: number | undefined;
      let failures = 0;
      for (;;) {
        const video = videoRef.current;
        const canvas = canvasRef.current;
        if (!alive() || !video || !canvas || !landmarker) return null;
        const began = Date.now();
        drawFrame(video, canvas);
        let found: FaceFound | null = null;
        try {
          found = await landmarker.detect(canvas);
          failures = 0;
          if (found) times.push(found.ms);
        } catch (error) {
          failures += 1;
          if (failures >= 3) {
            // The model stopped working (a lost WebGL context): the rest goes by countdown.
            console.error('[câmera] falha na leitura do rosto', error);
            return { picture: encode(canvas), status: 'timed-out', landmarks: null, lost: true };
          }
        }
        if (!alive()) return null;
        const shot = (status: PictureStatus, landmarks: number[] | null): Shot => ({
          picture: encode(canvas),
          status,
          landmarks,
        });
        const keep = (score: number, landmarks: number[]) => {
          if (!best || score > best.score) best = { score, shot: shot('timed-out', landmarks) };
        };
        if (target === 'neutral') {
          const where = found ? placement(found.box, canvas.width, canvas.height) : null;
          // Every movement is measured from this picture: it must look ahead.
          const ahead = found ? looksAhead(found.landmarks) : false;
          if (!found) patch({ hint: GUIDE_HINTS.noFace, placed: false });
          else if (found.faces > 1) patch({ hint: GUIDE_HINTS.manyFaces, placed: false });
          else if (where !== 'ok')
            patch({
              hint: where === 'small' ? GUIDE_HINTS.small : GUIDE_HINTS.offCentre,
              placed: false,
            });
          else if (!ahead) patch({ hint: GUIDE_HINTS.lookAhead, placed: false });
          if (found && found.faces === 1) keep(where === 'ok' && ahead ? 1 : 0, found.landmarks);
          if (!found || found.faces > 1 || where !== 'ok' || !ahead) holdSince = null;
          else {
            holdSince ??= began;
            if (began - holdSince >= t.neutralHoldMs) return shot('seen', found.landmarks);
            patch({ hint: GUIDE_HINTS.hold, placed: true });
          }
        } else if (reference) {
          const pose = found ? relativePose(reference, found.landmarks) : null;
          if (!found || !pose) patch({ hint: GUIDE_HINTS.noFace, placed: false });
          else if (target === 'return') {
            // Back and still for a moment: a head passing through the middle is not back yet.
            if (!isBack(pose)) holdSince = null;
            else {
              holdSince ??= began;
              if (began - holdSince >= t.neutralHoldMs) return shot('seen', found.landmarks);
            }
            keep(-Math.max(Math.abs(pose.yaw), Math.abs(pose.pitch)), found.landmarks);
            patch({ hint: holdSince === null ? null : GUIDE_HINTS.hold, placed: true });
          } else {
            const amount = moveAmount(target, pose);
            const goal = moveGoal(target);
            peak = Math.max(peak ?? amount, amount);
            if (amount >= goal) return { ...shot('seen', found.landmarks), peak };
            keep(amount, found.landmarks);
            patch({
              progress: Math.max(0, Math.min(1, amount / goal)),
              placed: true,
              hint:
                amount < -goal / 2
                  ? GUIDE_HINTS.otherWay
                  : amount > goal / 4
                    ? GUIDE_HINTS.further
                    : null,
            });
          }
        }
        if (Date.now() >= until) {
          const kept = best as { score: number; shot: Shot } | null;
          return { ...(kept ? kept.shot : shot('timed-out', found?.landmarks ?? null)), peak };
        }
        await sleep(Math.max(20, began + t.detectIntervalMs - Date.now()));
      }
    };

    for (let index = 0; index < targets.length; index += 1) {
      const target = targets[index] ?? 'neutral';
      patch({
        index,
        hint: null,
        progress: target === 'neutral' || target === 'return' ? null : 0,
        placed: false,
      });
      const timeout = phaseTimeout(Date.now(), deadline, targets.length - index, t);
      const useLandmarks: boolean =
        mode === 'landmarks' && (target === 'neutral' || reference !== null);
      const taken: Shot | null = useLandmarks ? await follow(target, timeout) : await countdown();
      if (!taken || !alive()) return;
      pictures.push(taken.picture);
      statuses.push(taken.status);
      if (taken.peak !== undefined) peaks.push(Math.round(taken.peak));
      if (target === 'neutral') reference = taken.landmarks;
      // Without a reference (no face seen) or without a working model, poses cannot be read.
      if (taken.lost || (target === 'neutral' && !reference)) mode = 'timed';
      patch({
        pictures: [...pictures],
        statuses: [...statuses],
        mode,
        progress: null,
        detections: times.length,
        detectMs: median(times),
        peaks: [...peaks],
      });
    }
    patch({ stage: 'done', index: targets.length, hint: null, countdown: null, placed: false });
  }, [canvasRef, videoRef]);

  const remainingMs = view.deadline === null ? null : Math.max(0, view.deadline - now);
  return { view, start, reset, remainingMs };
}
