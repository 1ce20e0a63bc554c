/**
 * A camera for Chromium made from a fixture photo: a short .y4m clip of
 * webcam-sized frames in which the face moves a few pixels, as a person
 * sitting in front of a camera does. Chromium plays it as the front camera
 * (--use-file-for-fake-video-capture), so getUserMedia returns real frames.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { webcamFrame } from '../../apps/server/test/faces/captures';

export function hasFfmpeg(): boolean {
  try {
    execFileSync('ffmpeg', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export async function fakeCameraClip(fixture: string): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-camera-'));
  const frames = 24;
  for (let index = 0; index < frames; index += 1) {
    const phase = (index / frames) * 2 * Math.PI;
    const dx = Math.round(8 * Math.sin(phase));
    const dy = Math.round(4 * Math.cos(phase));
    fs.writeFileSync(
      path.join(dir, `frame${String(index).padStart(2, '0')}.jpg`),
      await webcamFrame(fixture, dx, dy),
    );
  }
  const clip = path.join(dir, 'camera.y4m');
  execFileSync(
    'ffmpeg',
    [
      '-loglevel',
      'error',
      '-framerate',
      '12',
      '-i',
      path.join(dir, 'frame%02d.jpg'),
      '-pix_fmt',
      'yuv420p',
      clip,
    ],
    { stdio: 'inherit' },
  );
  return clip;
}

export function cameraArgs(clip: string): string[] {
  return [
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-video-capture=${clip}`,
  ];
}
