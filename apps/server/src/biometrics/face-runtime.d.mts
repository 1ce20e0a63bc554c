/** Types of face-runtime.mjs, which stays plain JavaScript so workers load it untransformed. */

/** Installed @vladmandic/face-api version. */
export const FACE_API_VERSION: string;
/** face-api's node-wasm build (untyped: the package's types describe its browser build). */
export const faceapi: unknown;
/** The TensorFlow.js instance face-api runs on (one backend per thread). */
export const tf: { memory(): { numTensors: number } };
/** Loads and warms the networks once per thread; later calls return the same promise. */
export function loadFaceModels(warmInputSizes?: number[]): Promise<void>;
/** The loaded, repaired MobileFaceNet graph model; throws before loadFaceModels resolved. */
export function mobileFaceNet(): unknown;
