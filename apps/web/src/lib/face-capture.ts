/**
 * A face capture as the verification and enrolment calls take it
 * (`api/BiopassID/Verify`, `api/Auth/biometric-viewer-checkin`,
 * `api/BiopassID/Create`): the take that answers the challenge
 * `challengeId`. `image` is its first picture (the neutral one,
 * looking at the camera); `frames` the others in order (one per movement,
 * then the neutral one again), without `image` (each picture is sent once).
 * `password` is the person's own, when the capture flow asked for it.
 */
export type Capture = {
  challengeId: string;
  image: string;
  frames: string[];
  password?: string;
};

/**
 * The data URL of a capture without its prefix: everything up to and
 * including the first comma (`data:image/jpeg;base64,` is 23 characters, not
 * the 22 of spec 9, which counted the prefix of the old `image/jpg`).
 */
export function stripDataUrlPrefix(dataUrl: string): string {
  const comma = dataUrl.indexOf(',');
  return comma >= 0 ? dataUrl.slice(comma + 1) : dataUrl;
}

/** The pictures of a take, data URLs in order, as the capture to send: the first is `image`. */
export function captureFromTake(challengeId: string, dataUrls: readonly string[]): Capture {
  const [first = '', ...others] = dataUrls.map(stripDataUrlPrefix);
  return { challengeId, image: first, frames: others };
}
