/**
 * A face capture as the verification calls take it (`api/BiopassID/Verify`,
 * `api/Auth/biometric-viewer-checkin`): `image` is the verified picture and
 * the first frame of the burst; `frames` the other frames, in capture order,
 * without `image` (each picture is sent once).
 */
export type Capture = { image: string; frames: string[] };

/**
 * The data URL of a capture without its prefix: everything up to and
 * including the first comma (`data:image/jpeg;base64,` is 23 characters, not
 * the 22 of spec 9, which counted the prefix of the old `image/jpg`).
 */
export function stripDataUrlPrefix(dataUrl: string): string {
  const comma = dataUrl.indexOf(',');
  return comma >= 0 ? dataUrl.slice(comma + 1) : dataUrl;
}

/** A burst of data URLs, in capture order, as the capture to send: the first is the verified picture. */
export function captureFromBurst(dataUrls: readonly string[]): Capture {
  const [first = '', ...others] = dataUrls.map(stripDataUrlPrefix);
  return { image: first, frames: others };
}
