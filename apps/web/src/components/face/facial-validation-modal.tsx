/**
 * The facial-validation modal (spec 2, 68vw): live preview from the front
 * camera (ideal 640x400, no audio) with a face-frame overlay; the capture
 * button takes a short burst of frames; once captured, discard and confirm
 * are shown; a spinner shows while the result loads (spec 4, capture flow).
 * Camera errors are only logged (spec 8), to the console and as `stream_log`
 * events of the activity log, as are the camera's opening and each capture
 * sent for checking (target: the modal's title, the capture's purpose; no
 * device label, no image). Callers give the modal a new `key` for each
 * attempt, so every opening starts without a photo.
 */
import { Box, Button, Center, Group, Image, Loader, Modal, Stack, Text } from '@mantine/core';
import { IconCamera, IconCheck, IconTrash } from '@tabler/icons-react';
import { FACE_CAPTURE_BURST_PICTURES, WIDE_MODAL_WIDTH } from '@exame/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorDetails, recordActivity } from '../../lib/activity/activity-log';
import { captureFromBurst, type Capture } from '../../lib/face-capture';

const BURST_INTERVAL_MS = 160;

/** What the log keeps of a camera: its resolution and frame rate, never its label or id. */
function streamSettings(stream: MediaStream): Record<string, unknown> {
  let settings: MediaTrackSettings | undefined;
  try {
    settings = stream.getVideoTracks()[0]?.getSettings();
  } catch {
    // A stream without track settings (older browsers): the event goes without them.
  }
  return {
    width: settings?.width,
    height: settings?.height,
    frameRate: settings?.frameRate,
    facingMode: settings?.facingMode,
  };
}

/** The error's name (NotAllowedError, NotFoundError...) and message; a DOMException need not be an Error. */
function cameraError(error: unknown): Record<string, unknown> {
  const candidate = error as { name?: unknown; message?: unknown } | null;
  if (typeof candidate?.name === 'string') {
    return { name: candidate.name, message: String(candidate.message ?? '').slice(0, 500) };
  }
  return { message: String(errorDetails(error).message) };
}

/** A frame of the video as a real JPEG data URL. */
export function grabFrame(video: HTMLVideoElement, canvas: HTMLCanvasElement): string {
  canvas.width = video.videoWidth || 640;
  canvas.height = video.videoHeight || 400;
  const context = canvas.getContext('2d');
  context?.drawImage(video, 0, 0, canvas.width, canvas.height);
  return canvas.toDataURL('image/jpeg', 0.92);
}

export function FacialValidationModal({
  opened,
  title,
  onClose,
  onConfirm,
}: {
  opened: boolean;
  title: string;
  onClose: () => void;
  /** Runs with the capture; the modal shows the spinner until it settles. */
  onConfirm: (capture: Capture) => Promise<void>;
}) {
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const canvasRef = useRef<HTMLCanvasElement | null>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const [photo, setPhoto] = useState<{ preview: string; capture: Capture } | null>(null);
  const [cameraReady, setCameraReady] = useState(false);
  const [capturing, setCapturing] = useState(false);
  const [loading, setLoading] = useState(false);

  const stopCamera = useCallback(() => {
    for (const track of streamRef.current?.getTracks() ?? []) track.stop();
    streamRef.current = null;
    setCameraReady(false);
  }, []);

  useEffect(() => {
    if (!opened || photo) return;
    let cancelled = false;
    if (!navigator.mediaDevices?.getUserMedia) {
      console.error('[câmera] o navegador não oferece acesso à câmera');
      recordActivity('stream_log', title, { event: 'camera_unavailable' });
      return;
    }
    navigator.mediaDevices
      .getUserMedia({
        audio: false,
        video: {
          facingMode: 'user',
          width: { ideal: 640 },
          height: { ideal: 400 },
          aspectRatio: { ideal: 16 / 9 },
        },
      })
      .then((stream) => {
        if (cancelled) {
          for (const track of stream.getTracks()) track.stop();
          return;
        }
        streamRef.current = stream;
        recordActivity('stream_log', title, { event: 'camera_open', ...streamSettings(stream) });
        const video = videoRef.current;
        if (video) {
          video.srcObject = stream;
          void video.play().catch((error: unknown) => {
            console.error('[câmera] falha ao reproduzir', error);
            recordActivity('stream_log', title, {
              event: 'camera_play_error',
              ...cameraError(error),
            });
          });
        }
        setCameraReady(true);
      })
      .catch((error: unknown) => {
        // Spec 8: camera access errors are only logged.
        console.error('[câmera] acesso negado ou indisponível', error);
        recordActivity('stream_log', title, { event: 'camera_error', ...cameraError(error) });
      });
    return () => {
      cancelled = true;
      stopCamera();
    };
  }, [opened, photo, stopCamera, title]);

  const close = () => {
    setPhoto(null);
    onClose();
  };

  const capture = async () => {
    const video = videoRef.current;
    const canvas = canvasRef.current;
    if (!video || !canvas) return;
    setCapturing(true);
    const frames: string[] = [];
    for (let index = 0; index < FACE_CAPTURE_BURST_PICTURES; index += 1) {
      if (index > 0) await new Promise((resolve) => setTimeout(resolve, BURST_INTERVAL_MS));
      frames.push(grabFrame(video, canvas));
    }
    setCapturing(false);
    setPhoto({ preview: frames[0] ?? '', capture: captureFromBurst(frames) });
    stopCamera();
  };

  const confirm = async () => {
    if (!photo) return;
    setLoading(true);
    recordActivity('stream_log', title, {
      event: 'capture_published',
      frames: 1 + photo.capture.frames.length,
    });
    try {
      await onConfirm(photo.capture);
    } finally {
      setLoading(false);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={title}
      size={WIDE_MODAL_WIDTH}
      centered
      closeOnClickOutside={false}
    >
      <Stack gap="md" data-testid="facial-validation">
        <Box
          pos="relative"
          style={{
            aspectRatio: '16 / 10',
            background: '#111',
            borderRadius: 8,
            overflow: 'hidden',
          }}
        >
          {photo ? (
            <Image src={photo.preview} alt="Foto capturada" h="100%" fit="contain" />
          ) : (
            <video
              ref={videoRef}
              muted
              playsInline
              autoPlay
              aria-label="Pré-visualização da câmera"
              style={{ width: '100%', height: '100%', objectFit: 'cover', transform: 'scaleX(-1)' }}
            />
          )}
          {/* Face-frame overlay: where to place the face. */}
          <svg
            viewBox="0 0 160 100"
            preserveAspectRatio="xMidYMid meet"
            aria-hidden
            style={{
              position: 'absolute',
              inset: 0,
              width: '100%',
              height: '100%',
              pointerEvents: 'none',
            }}
          >
            <ellipse
              cx="80"
              cy="48"
              rx="22"
              ry="30"
              fill="none"
              stroke="white"
              strokeWidth="1"
              strokeDasharray="3 2"
              opacity="0.85"
            />
          </svg>
          {(loading || (!photo && !cameraReady)) && (
            <Center pos="absolute" inset={0} style={{ background: 'rgba(0,0,0,0.35)' }}>
              <Loader color="white" aria-label={loading ? 'Validando' : 'Abrindo a câmera'} />
            </Center>
          )}
        </Box>
        <Text size="sm" c="dimmed" ta="center">
          {photo
            ? 'Confira a foto. Se o rosto estiver nítido e dentro da moldura, confirme.'
            : 'Posicione o rosto dentro da moldura, olhe para a câmera e mantenha-se parado.'}
        </Text>
        <canvas ref={canvasRef} hidden />
        <Group justify="center">
          {!photo ? (
            <Button
              leftSection={<IconCamera size={18} />}
              onClick={() => void capture()}
              disabled={!cameraReady}
              loading={capturing}
            >
              Capturar
            </Button>
          ) : (
            <>
              <Button
                variant="default"
                leftSection={<IconTrash size={18} />}
                onClick={() => setPhoto(null)}
                disabled={loading}
              >
                Descartar
              </Button>
              <Button
                leftSection={<IconCheck size={18} />}
                onClick={() => void confirm()}
                loading={loading}
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
