/**
 * The facial-validation modal (spec 2, 68vw): live preview from the front
 * camera (ideal 640x400, no audio), mirrored, with a face-frame overlay; a
 * spinner while loading; without a take the start button, with a take
 * Descartar and Confirmar (spec 4, capture flow).
 *
 * The capture answers a challenge of the server: "Iniciar
 * captura" asks the caller for one (`requestChallenge`), then guides the
 * person through it (use-face-guide.ts): the prompt of each picture (read
 * out by screen readers), the arrow of the movement on the face frame, the
 * checklist of the steps and the time left. Confirmar hands the caller
 * `{ challengeId, image, frames }` (and the password, when asked); a refusal
 * (the caller's promise rejects) stays in the modal, with the checklist and
 * the prompt still on screen, 'Falha na validação' and the server's message,
 * 'Cancelar' and 'Tentar novamente' (a new challenge).
 *
 * Camera errors are only logged (spec 8), to the console and as `stream_log`
 * events of the activity log, as are the camera's opening, the landmark
 * model's loading and each take sent (target: the modal's title; never a
 * device label nor an image). Callers give the modal a new `key` for each
 * attempt, so every opening starts without a take.
 */
import {
  Alert,
  Box,
  Button,
  Center,
  Grid,
  Group,
  Image,
  Modal,
  PasswordInput,
  Progress,
  Stack,
  Text,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconCamera, IconCheck, IconRefresh, IconTrash } from '@tabler/icons-react';
import { FACE_CHALLENGE_ERRORS, WIDE_MODAL_WIDTH, type FaceChallenge } from '@exame/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { recordActivity } from '../../lib/activity/activity-log';
import { captureFromTake, type Capture } from '../../lib/face-capture';
import { loadLandmarker, type LandmarkerLoader } from '../../lib/face-landmarks';
import { cameraError, streamSettings, useCamera } from './camera';
import { promptOf, refusedPicture } from './face-guide';
import { ChallengeChecklist, FaceFrameOverlay } from './face-guide-parts';
import { useFaceGuide, type GuideTimings } from './use-face-guide';
import { LoadingSpinner } from '../loading-spinner';

export { grabFrame } from './camera';

const IDLE_PROMPT = 'Ao iniciar, olhe para a câmera e faça os movimentos pedidos na tela.';
const REVIEW_PROMPT = 'Confira a foto. Se o rosto estiver nítido e dentro da moldura, confirme.';

export function FacialValidationModal({
  opened,
  title,
  onClose,
  onConfirm,
  requestChallenge,
  askPassword,
  failureTitle = 'Falha na validação',
  landmarker = loadLandmarker,
  timings,
}: {
  opened: boolean;
  title: string;
  onClose: () => void;
  /** Runs with the take; the modal shows the spinner until it settles, and a rejection as the refusal. */
  onConfirm: (capture: Capture) => Promise<void>;
  /** A new challenge from the server (`POST api/BiopassID/Challenge`) for this capture's purpose. */
  requestChallenge: () => Promise<FaceChallenge>;
  /** The person is not the signed-in user: they type their own password before Confirmar. */
  askPassword?: { label: string };
  /** The refusal's title (spec 8: 'Falha na validação'; an enrolment says 'Falha no cadastro'). */
  failureTitle?: string;
  /** Where the face landmarks come from (the lazy face-api loader; tests give their own). */
  landmarker?: LandmarkerLoader;
  timings?: Partial<GuideTimings>;
}) {
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const canvasRef = useRef<HTMLCanvasElement | null>(null);
  const panelRef = useRef<HTMLDivElement | null>(null);
  const [sending, setSending] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const narrow = useMediaQuery('(max-width: 36em)');

  const log = useCallback(
    (event: string, details: Record<string, unknown> = {}) =>
      recordActivity('stream_log', title, { event, ...details }),
    [title],
  );
  const cameraReady = useCamera({
    opened,
    videoRef,
    onOpen: (stream) => log('camera_open', streamSettings(stream)),
    onError: (event, error) => log(event, error === undefined ? {} : cameraError(error)),
  });
  const guide = useFaceGuide({
    opened,
    videoRef,
    canvasRef,
    loader: landmarker,
    requestChallenge,
    timings,
    log,
  });
  const { view, remainingMs } = guide;

  const expired = view.stage === 'done' && remainingMs === 0 && !sending && refusal === null;
  const phase = refusal !== null || expired ? 'refused' : sending ? 'sending' : view.stage;
  const target = view.targets[view.index] ?? null;
  const move =
    phase === 'guiding' && target && target !== 'neutral' && target !== 'return' ? target : null;

  // The person's focus follows the flow: the main control of each phase, once it can be used
  // (the start waits for the camera), or the password while it is still empty.
  useEffect(() => {
    const panel = panelRef.current;
    if (!panel) return;
    const passwordInput = panel.querySelector<HTMLInputElement>('input[type="password"]');
    const target =
      passwordInput && passwordInput.value === '' && (phase === 'idle' || phase === 'done')
        ? passwordInput
        : panel.querySelector<HTMLElement>('[data-focus-main]');
    target?.focus();
  }, [phase, cameraReady]);

  const close = () => {
    guide.reset();
    onClose();
  };

  const retry = () => {
    setRefusal(null);
    void guide.start();
  };

  const discard = () => {
    setRefusal(null);
    guide.reset();
  };

  const confirm = async () => {
    if (!view.challenge || view.stage !== 'done') return;
    if (askPassword && !password) {
      setPasswordError('Informe a senha.');
      return;
    }
    const capture = captureFromTake(view.challenge.challengeId, view.pictures);
    if (askPassword) capture.password = password;
    setSending(true);
    log('capture_published', {
      pictures: view.pictures.length,
      steps: view.challenge.steps.length,
      seen: view.statuses.filter((status) => status === 'seen').length,
      mode: view.mode,
      detections: view.detections,
      detectMs: view.detectMs,
      peaks: view.peaks,
    });
    try {
      await onConfirm(capture);
    } catch (error) {
      setRefusal(
        error instanceof Error && error.message
          ? error.message
          : 'A validação facial não foi confirmada.',
      );
    } finally {
      setSending(false);
    }
  };

  // What the prompt says: the step of the take or, once refused, the picture the server names,
  // else the first one the screen did not see, else the last.
  const missed = view.statuses.findIndex((status) => status === 'timed-out');
  const named = refusal === null ? null : refusedPicture(refusal, view.targets);
  const troubled = named ?? (missed >= 0 ? missed : view.targets.length - 1);
  const prompt =
    phase === 'idle'
      ? IDLE_PROMPT
      : phase === 'preparing'
        ? 'Preparando a captura…'
        : phase === 'guiding' && target
          ? promptOf(target)
          : phase === 'refused' && view.targets.length > 0
            ? promptOf(view.targets[troubled] ?? 'neutral')
            : REVIEW_PROMPT;
  const showPicture =
    (phase === 'done' || phase === 'sending' || phase === 'refused') && view.pictures[0];
  const remaining = remainingMs === null ? null : Math.ceil(remainingMs / 1000);

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={title}
      size={WIDE_MODAL_WIDTH}
      fullScreen={narrow}
      centered
      closeOnClickOutside={false}
    >
      <Stack
        gap="md"
        ref={panelRef}
        data-testid="facial-validation"
        data-face-target={
          phase === 'guiding' && view.countdown === null ? (target ?? undefined) : undefined
        }
      >
        <Grid gap="md" align="flex-start">
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Box
              pos="relative"
              style={{
                aspectRatio: '16 / 10',
                background: '#111',
                borderRadius: 8,
                overflow: 'hidden',
              }}
            >
              <video
                ref={videoRef}
                muted
                playsInline
                autoPlay
                aria-label="Pré-visualização da câmera"
                style={{
                  width: '100%',
                  height: '100%',
                  objectFit: 'cover',
                  transform: 'scaleX(-1)',
                }}
              />
              {showPicture && (
                <Image
                  src={view.pictures[0]}
                  alt="Foto capturada"
                  pos="absolute"
                  inset={0}
                  h="100%"
                  fit="contain"
                  bg="#111"
                />
              )}
              <FaceFrameOverlay
                move={move}
                placed={phase === 'guiding' && view.placed}
                countdown={phase === 'guiding' ? view.countdown : null}
              />
              {(phase === 'sending' ||
                phase === 'preparing' ||
                (phase === 'idle' && !cameraReady)) && (
                <Center pos="absolute" inset={0} style={{ background: 'rgba(0,0,0,0.35)' }}>
                  <LoadingSpinner
                    color="white"
                    label={
                      phase === 'sending'
                        ? 'Validando'
                        : phase === 'preparing'
                          ? 'Preparando a captura'
                          : 'Abrindo a câmera'
                    }
                  />
                </Center>
              )}
            </Box>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <Stack gap="sm">
              <Text fw={700} size="lg" aria-live="polite" data-testid="face-prompt">
                {prompt}
              </Text>
              {phase === 'guiding' && view.hint && (
                <Text size="sm" c="dimmed" data-testid="face-hint">
                  {view.hint}
                </Text>
              )}
              {phase === 'guiding' && view.progress !== null && view.mode === 'landmarks' && (
                <Progress
                  value={Math.round(view.progress * 100)}
                  aria-label="Quanto do movimento já foi feito"
                />
              )}
              {phase !== 'idle' && phase !== 'preparing' && (
                <ChallengeChecklist
                  targets={view.targets}
                  index={view.index}
                  statuses={view.statuses}
                />
              )}
              {remaining !== null && phase !== 'refused' && (
                <Text size="sm" role="timer" data-testid="face-remaining">
                  Tempo restante: {remaining} s
                </Text>
              )}
              {phase === 'done' && missed >= 0 && (
                <Text size="sm" c="orange.9">
                  Nem todos os movimentos foram percebidos: a validação pode ser recusada. Se
                  preferir, descarte e faça a captura de novo.
                </Text>
              )}
              {view.error && phase === 'idle' && (
                <Alert color="red" title="Não foi possível iniciar a captura" role="alert">
                  {view.error}
                </Alert>
              )}
              {phase === 'refused' && (
                <Alert color="red" title={failureTitle} role="alert" data-testid="face-refusal">
                  {refusal ?? FACE_CHALLENGE_ERRORS.FACE_CHALLENGE_EXPIRED.message}
                </Alert>
              )}
              {askPassword && (phase === 'idle' || phase === 'done' || phase === 'sending') && (
                <PasswordInput
                  label={askPassword.label}
                  required
                  autoComplete="current-password"
                  value={password}
                  onChange={(event) => {
                    setPassword(event.currentTarget.value);
                    setPasswordError(null);
                  }}
                  onKeyDown={(event) => {
                    if (event.key === 'Enter' && phase === 'done') void confirm();
                  }}
                  error={passwordError}
                  disabled={phase === 'sending'}
                />
              )}
            </Stack>
          </Grid.Col>
        </Grid>
        <canvas ref={canvasRef} hidden />
        <Group justify="flex-end" gap="sm">
          {phase === 'idle' || phase === 'preparing' ? (
            <Button
              data-autofocus
              data-focus-main
              leftSection={<IconCamera size={18} aria-hidden />}
              onClick={() => void guide.start()}
              disabled={!cameraReady}
              loading={phase === 'preparing'}
            >
              Iniciar captura
            </Button>
          ) : phase === 'guiding' ? (
            <Button variant="default" data-focus-main onClick={discard}>
              Interromper
            </Button>
          ) : phase === 'refused' ? (
            <>
              <Button variant="default" onClick={close}>
                Cancelar
              </Button>
              <Button
                data-focus-main
                leftSection={<IconRefresh size={18} aria-hidden />}
                onClick={retry}
              >
                Tentar novamente
              </Button>
            </>
          ) : (
            <>
              <Button
                variant="default"
                leftSection={<IconTrash size={18} aria-hidden />}
                onClick={discard}
                disabled={phase === 'sending'}
              >
                Descartar
              </Button>
              <Button
                data-focus-main
                leftSection={<IconCheck size={18} aria-hidden />}
                onClick={() => void confirm()}
                loading={phase === 'sending'}
              >
                Confirmar
              </Button>
            </>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
