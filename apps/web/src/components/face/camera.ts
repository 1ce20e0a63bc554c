/**
 * The front camera of the facial-validation modal (spec 9: front-facing,
 * ideal 640x400, about 16:9, no audio; pictures as JPEG data URLs). Its
 * errors are only logged (spec 8): the caller turns them into `stream_log`
 * events, with the error's name and message and never a device label.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import { errorDetails } from '../../lib/activity/activity-log';

/** What the log keeps of a camera: its resolution and frame rate, never its label or id. */
export function streamSettings(stream: MediaStream): Record<string, unknown> {
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
export function cameraError(error: unknown): Record<string, unknown> {
  const candidate = error as { name?: unknown; message?: unknown } | null;
  if (typeof candidate?.name === 'string') {
    return { name: candidate.name, message: String(candidate.message ?? '').slice(0, 500) };
  }
  return { message: String(errorDetails(error).message) };
}

/** Draws the video's current frame on the canvas, at the video's size. */
export function drawFrame(video: HTMLVideoElement, canvas: HTMLCanvasElement): void {
  canvas.width = video.videoWidth || 640;
  canvas.height = video.videoHeight || 400;
  canvas.getContext('2d')?.drawImage(video, 0, 0, canvas.width, canvas.height);
}

/** What the canvas holds, as a real JPEG data URL. */
export function encodeFrame(canvas: HTMLCanvasElement): string {
  return canvas.toDataURL('image/jpeg', 0.92);
}

/** A frame of the video as a real JPEG data URL. */
export function grabFrame(video: HTMLVideoElement, canvas: HTMLCanvasElement): string {
  drawFrame(video, canvas);
  return encodeFrame(canvas);
}

/**
 * Opens the camera into `videoRef` while `opened`, and stops it when the
 * modal closes. Returns whether the preview is playing.
 */
export function useCamera({
  opened,
  videoRef,
  onOpen,
  onError,
}: {
  opened: boolean;
  videoRef: RefObject<HTMLVideoElement | null>;
  onOpen: (stream: MediaStream) => void;
  onError: (event: string, error?: unknown) => void;
}): boolean {
  const [ready, setReady] = useState(false);
  const callbacks = useRef({ onOpen, onError });
  useEffect(() => {
    callbacks.current = { onOpen, onError };
  });

  useEffect(() => {
    if (!opened) return;
    let cancelled = false;
    let stream: MediaStream | null = null;
    if (!navigator.mediaDevices?.getUserMedia) {
      console.error('[câmera] o navegador não oferece acesso à câmera');
      callbacks.current.onError('camera_unavailable');
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
      .then((opening) => {
        if (cancelled) {
          for (const track of opening.getTracks()) track.stop();
          return;
        }
        stream = opening;
        callbacks.current.onOpen(opening);
        const video = videoRef.current;
        if (video) {
          video.srcObject = opening;
          void video.play().catch((error: unknown) => {
            console.error('[câmera] falha ao reproduzir', error);
            callbacks.current.onError('camera_play_error', error);
          });
        }
        setReady(true);
      })
      .catch((error: unknown) => {
        // Spec 8: camera access errors are only logged.
        console.error('[câmera] acesso negado ou indisponível', error);
        callbacks.current.onError('camera_error', error);
      });
    return () => {
      cancelled = true;
      for (const track of stream?.getTracks() ?? []) track.stop();
      setReady(false);
    };
  }, [opened, videoRef]);

  return ready;
}
