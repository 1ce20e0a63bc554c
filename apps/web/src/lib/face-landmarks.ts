/**
 * Face landmarks in the browser, for the guided capture: the
 * capture screen follows the person's head through the challenge with the
 * same networks the server reads the take with (face-api's tiny face
 * detector and the full 68-point landmark net), so the pose the screen waits
 * for is the pose the server measures (`relativePose` of '@exame/shared').
 *
 * Everything heavy is loaded on first use, when a capture modal opens:
 * face-api's browser build (TensorFlow.js inside, about 1.3 MB) comes as a
 * chunk of its own; the weights (~550 KB) and TensorFlow.js's WebAssembly
 * kernels (~425 KB, one of three builds is fetched) are files Vite copies
 * from the packages into the build's hashed assets at build time (the
 * `?url` imports below), so they are never committed and the server caches
 * them like any other hashed asset. No other screen's bundle grows.
 *
 * The backend is chosen in chooseBackend: 'wasm' (the server's), else
 * 'webgl' on a real GPU, else 'cpu'; never anything that needs 'unsafe-eval'.
 */
// Types only: the module itself is imported on first use, below.
import type * as FaceApiModule from '@vladmandic/face-api/dist/face-api.esm.js';
import landmarkWeightsUrl from '@vladmandic/face-api/model/face_landmark_68_model.bin?url';
import detectorWeightsUrl from '@vladmandic/face-api/model/tiny_face_detector_model.bin?url';
// TensorFlow.js's WebAssembly kernels, the version face-api's bundle was built with.
import wasmUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url';
import wasmSimdUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url';
import wasmThreadedUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm?url';

export type FaceBox = { x: number; y: number; width: number; height: number };

export type FaceFound = {
  /** The 68 points `[x0, y0, x1, y1, ...]` in video pixels, not mirrored (face-api / iBUG order). */
  landmarks: number[];
  /** The face's box in video pixels. */
  box: FaceBox;
  /** How many faces the detector saw in the frame (the landmarks are the largest one's). */
  faces: number;
  /** Milliseconds the detection took. */
  ms: number;
};

/** What a detection reads: the video, or the canvas a frame of it was drawn on (the picture kept). */
export type FrameSource = HTMLVideoElement | HTMLCanvasElement;

export type Landmarker = {
  /** The largest face of the frame (a video, or a canvas it was drawn on), or null when none is seen. */
  detect: (source: FrameSource) => Promise<FaceFound | null>;
  /** The TensorFlow.js backend in use ('webgl', 'cpu'), for the logs. */
  backend: string;
};

/** What the capture modal is given to find its landmarker; tests pass their own. */
export type LandmarkerLoader = () => Promise<Landmarker>;

/**
 * The detector's input side. The server reads the take at 416 (the first of
 * its detector sizes, face-engine.ts), and the 68 points depend on the box
 * the detector draws, so at 416 the screen reads the pose the server will
 * (on 'wasm', its own backend, the same numbers but for the JPEG): ~60-100 ms
 * a detection here. The slow 'cpu' backend uses 224, for a few a second.
 */
const DETECTOR_INPUT_SIZE = 416;
const DETECTOR_INPUT_SIZE_CPU = 224;
const DETECTOR_MIN_SCORE = 0.5;

type FaceApi = typeof FaceApiModule;
type WeightsManifest = Array<{ paths: string[]; weights: unknown[] }>;

async function fetchWeights(url: string): Promise<ArrayBuffer> {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`Pesos do modelo facial indisponíveis (${response.status}).`);
  return response.arrayBuffer();
}

/** Loads one network from its manifest and its single weights file (both shipped by face-api). */
async function loadNet(
  faceapi: FaceApi,
  net: { loadFromWeightMap: (map: ReturnType<FaceApi['tf']['io']['decodeWeights']>) => void },
  manifest: WeightsManifest,
  weightsUrl: string,
): Promise<void> {
  const specs = manifest.flatMap((group) => group.weights) as Parameters<
    FaceApi['tf']['io']['decodeWeights']
  >[1];
  net.loadFromWeightMap(faceapi.tf.io.decodeWeights(await fetchWeights(weightsUrl), specs));
}

/**
 * Whether the browser's WebGL is drawn in software (SwiftShader, llvmpipe:
 * no GPU, or one the browser blocks), where TensorFlow.js is as slow as on
 * its plain 'cpu' backend.
 */
function softwareWebgl(): boolean {
  try {
    const canvas = document.createElement('canvas');
    const gl = canvas.getContext('webgl2') ?? canvas.getContext('webgl');
    if (!gl) return true;
    // Browsers mask RENDERER ('WebKit WebGL'); the debug extension names the real one, when offered.
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const renderer = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return /swiftshader|llvmpipe|software|basic render/i.test(renderer);
  } catch {
    return true;
  }
}

type Tf = FaceApi['tf'] & {
  setBackend: (name: string) => Promise<boolean>;
  ready: () => Promise<void>;
  env: () => { set: (flag: string, value: boolean) => void };
  setWasmPaths: (paths: Record<string, string>) => void;
};

/**
 * The backend, fastest first as measured in Chromium on this project's
 * 2-core machine (tiny detector at 224 + the 68-point net, per detection):
 * 'wasm' ~30 ms (the server's own backend, so the same numbers), 'webgl'
 * on a real GPU comparable, 'webgl' drawn in software ~600 ms, 'cpu'
 * ~650 ms. 'wasm' needs 'wasm-unsafe-eval' in the page's script-src (it
 * lets the page compile WebAssembly, not evaluate JavaScript); where a
 * policy refuses it, the next backend is used.
 */
async function chooseBackend(faceapi: FaceApi): Promise<string> {
  // face-api's types list only the few tfjs functions it uses; its bundle has all of tfjs.
  const tf = faceapi.tf as Tf;
  // Threads need a cross-origin isolated page, which this one is not.
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  tf.setWasmPaths({
    'tfjs-backend-wasm.wasm': wasmUrl,
    'tfjs-backend-wasm-simd.wasm': wasmSimdUrl,
    'tfjs-backend-wasm-threaded-simd.wasm': wasmThreadedUrl,
  });
  const order = softwareWebgl() ? ['wasm', 'cpu'] : ['wasm', 'webgl', 'cpu'];
  for (const backend of order) {
    try {
      if (await tf.setBackend(backend)) {
        await tf.ready();
        return backend;
      }
    } catch {
      // This backend cannot start here (no WebAssembly under the policy, no WebGL): try the next.
    }
  }
  throw new Error('Nenhum backend do TensorFlow.js pôde ser iniciado.');
}

async function load(): Promise<Landmarker> {
  const [faceapi, detectorManifest, landmarkManifest] = await Promise.all([
    import('@vladmandic/face-api/dist/face-api.esm.js'),
    import('@vladmandic/face-api/model/tiny_face_detector_model-weights_manifest.json'),
    import('@vladmandic/face-api/model/face_landmark_68_model-weights_manifest.json'),
  ]);
  const backend = await chooseBackend(faceapi);
  await Promise.all([
    loadNet(
      faceapi,
      faceapi.nets.tinyFaceDetector,
      detectorManifest.default as WeightsManifest,
      detectorWeightsUrl,
    ),
    loadNet(
      faceapi,
      faceapi.nets.faceLandmark68Net,
      landmarkManifest.default as WeightsManifest,
      landmarkWeightsUrl,
    ),
  ]);
  const tf = faceapi.tf;
  const options = new faceapi.TinyFaceDetectorOptions({
    inputSize: backend === 'cpu' ? DETECTOR_INPUT_SIZE_CPU : DETECTOR_INPUT_SIZE,
    scoreThreshold: DETECTOR_MIN_SCORE,
  });

  const detect = async (source: FrameSource): Promise<FaceFound | null> => {
    const width = source instanceof HTMLVideoElement ? source.videoWidth : source.width;
    const height = source instanceof HTMLVideoElement ? source.videoHeight : source.height;
    if (!width || !height) return null;
    const started = performance.now();
    const frame = tf.browser.fromPixels(source);
    try {
      const found = await faceapi.nets.tinyFaceDetector.locateFaces(frame, options);
      const boxes = found
        .map((detection) => {
          // Clipped to the frame, as the server does before it reads the landmarks.
          const x = Math.max(0, Math.floor(detection.box.x));
          const y = Math.max(0, Math.floor(detection.box.y));
          const right = Math.min(width, Math.ceil(detection.box.x + detection.box.width));
          const bottom = Math.min(height, Math.ceil(detection.box.y + detection.box.height));
          return { x, y, width: right - x, height: bottom - y };
        })
        .filter((box) => box.width > 8 && box.height > 8)
        .sort((a, b) => b.width * b.height - a.width * a.height);
      const box = boxes[0];
      if (!box) return null;
      // The landmarks of the face's crop, shifted back: the server's way (engine-core.mjs).
      const crop = tf.slice(frame, [box.y, box.x, 0], [box.height, box.width, 3]);
      try {
        const points = (await faceapi.nets.faceLandmark68Net.detectLandmarks(crop)) as {
          shiftBy: (x: number, y: number) => { positions: Array<{ x: number; y: number }> };
        };
        const landmarks = points
          .shiftBy(box.x, box.y)
          .positions.flatMap((point) => [point.x, point.y]);
        return { landmarks, box, faces: boxes.length, ms: performance.now() - started };
      } finally {
        crop.dispose();
      }
    } finally {
      frame.dispose();
    }
  };
  return { detect, backend };
}

let loading: Promise<Landmarker> | null = null;

/** The landmarker, loaded once per page; a failed load (offline, no backend) is tried again next time. */
export function loadLandmarker(): Promise<Landmarker> {
  if (!loading) {
    loading = load();
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}

/** The largest face of the video's current frame (loads the landmarker on first use). */
export async function detect(video: FrameSource): Promise<FaceFound | null> {
  return (await loadLandmarker()).detect(video);
}
