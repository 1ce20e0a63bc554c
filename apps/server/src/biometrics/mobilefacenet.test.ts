import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devPhoto } from '../../test/faces/captures';
import { FacePool } from './face-pool';
import { loadFaceModels, mobileFaceNet, tf } from './face-runtime.mjs';
import {
  alignedCrop,
  ARCFACE_POINTS,
  embedCrops,
  embedFace,
  FUSED_RELUS,
  MOBILEFACENET_DIR,
  mirroredCrop,
  PRELU_SLOPES,
  readRepairedMobileFaceNet,
  repairMobileFaceNet,
  similarityTransform,
} from './mobilefacenet.mjs';

type Node = { name: string; op: string; input?: string[]; attr?: Record<string, unknown> };
type Tf = {
  tensor4d(values: Float32Array, shape: number[]): { dispose(): void };
  dispose(value: unknown): void;
};
type Model = { execute(input: unknown, output: string): { data(): Promise<Float32Array> } };

const onDatabaseRun = Boolean(process.env.TEST_DATABASE_URL);

function shipped(): { json: { modelTopology: { node: Node[] } }; weights: ArrayBuffer } {
  const json = JSON.parse(
    fs.readFileSync(path.join(MOBILEFACENET_DIR, 'mobilefacenet.json'), 'utf8'),
  ) as { modelTopology: { node: Node[] } };
  const bin = fs.readFileSync(path.join(MOBILEFACENET_DIR, 'mobilefacenet.bin'));
  return { json, weights: bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.byteLength) };
}

/** A fixed, photo-free input: the model alone, independent of detection and decoding. */
function syntheticCrop(): Float32Array {
  const crop = new Float32Array(112 * 112 * 3);
  for (let i = 0; i < crop.length; i++) crop[i] = Math.sin(i * 0.001) * 0.9;
  return crop;
}

describe('MobileFaceNet repair at load', () => {
  it('flips the 33 PReLU slopes and unfuses the 16 depthwise Relus', () => {
    const { json, weights } = shipped();
    const repaired = readRepairedMobileFaceNet();
    expect(repaired.slopes).toBe(PRELU_SLOPES);
    expect(repaired.relus).toBe(FUSED_RELUS);
    expect([PRELU_SLOPES, FUSED_RELUS]).toEqual([33, 16]);

    const nodes = repaired.modelTopology.node as Node[];
    const depthwise = nodes.filter((n) => n.op === 'FusedDepthwiseConv2dNative');
    expect(depthwise).toHaveLength(17);
    const bias = Buffer.from('BiasAdd').toString('base64');
    for (const node of depthwise) {
      expect((node.attr as { fused_ops: { list: { s: string[] } } }).fused_ops.list.s).toEqual([
        bias,
      ]);
    }
    const unfused = nodes.filter((n) => n.name.endsWith('/UnfusedRelu'));
    expect(unfused).toHaveLength(16);
    for (const relu of unfused) {
      expect(relu.op).toBe('Relu');
      const conv = relu.input?.[0] ?? '';
      // Abs and Sub of the PReLU still read the convolution; only the Add's
      // positive branch reads the Relu.
      const consumers = nodes.filter((n) => n.input?.includes(relu.name));
      expect(consumers.map((n) => n.op)).toEqual(['Add']);
      const readers = nodes.filter((n) => n.input?.includes(conv)).map((n) => n.op);
      expect(readers.sort()).toEqual(['Abs', 'Relu', 'Sub']);
    }

    // Slopes negated in a copy; the shipped buffer is untouched.
    const specs = repaired.weightSpecs;
    const first = specs.findIndex((s) => s.name.endsWith('/mul'));
    let offset = 0;
    for (const spec of specs.slice(0, first)) offset += spec.shape.reduce((a, b) => a * b, 1) * 4;
    const before = new Float32Array(weights, offset, 4);
    const after = new Float32Array(repaired.weightData, offset, 4);
    for (let i = 0; i < 4; i++) expect(after[i]).toBe(-(before[i] ?? 0));
    expect(json.modelTopology.node.some((n) => n.name.endsWith('/UnfusedRelu'))).toBe(false);
  });

  it('refuses a model whose counts differ', () => {
    const { json, weights } = shipped();
    const oneRepaired = structuredClone(json);
    const conv = oneRepaired.modelTopology.node.find(
      (n) => n.op === 'FusedDepthwiseConv2dNative',
    ) as Node & { attr: { fused_ops: { list: { s: string[] } } } };
    conv.attr.fused_ops.list.s = [Buffer.from('BiasAdd').toString('base64')];
    expect(() => repairMobileFaceNet(oneRepaired, weights)).toThrow(/15 Relu fundidos/);
    const truncated = weights.slice(0, weights.byteLength - 4);
    expect(() => repairMobileFaceNet(json, truncated)).toThrow(/bytes/);
  });
});

describe('5-point alignment', () => {
  it('fits a similarity transform exactly when one exists', () => {
    const angle = 0.3;
    const scale = 2.5;
    const moved = ARCFACE_POINTS.map(([x = 0, y = 0]) => [
      scale * (Math.cos(angle) * x - Math.sin(angle) * y) + 40,
      scale * (Math.sin(angle) * x + Math.cos(angle) * y) - 7,
    ]);
    const [a, b, tx, ty] = similarityTransform(ARCFACE_POINTS, moved);
    expect(a).toBeCloseTo(scale * Math.cos(angle), 9);
    expect(b).toBeCloseTo(scale * Math.sin(angle), 9);
    expect(tx).toBeCloseTo(40, 9);
    expect(ty).toBeCloseTo(-7, 9);
  });

  it('maps the five landmarks onto the ArcFace layout (RGB, (x - 127.5) / 128)', () => {
    // 68 landmarks placed so that the five derived points sit at twice the
    // ArcFace positions; a white dot under the left eye must land at (38, 52).
    const width = 300;
    const height = 300;
    const rgb = new Uint8Array(width * height * 3);
    const [le, re, nose, ml, mr] = ARCFACE_POINTS.map(([x = 0, y = 0]) => ({ x: 2 * x, y: 2 * y }));
    const points = Array.from({ length: 68 }, () => ({ x: 0, y: 0 }));
    for (let i = 36; i < 42; i++) points[i] = le!;
    for (let i = 42; i < 48; i++) points[i] = re!;
    points[30] = nose!;
    points[48] = ml!;
    points[54] = mr!;
    const cx = Math.round(le!.x);
    const cy = Math.round(le!.y);
    for (let y = cy - 3; y <= cy + 3; y++) {
      for (let x = cx - 3; x <= cx + 3; x++)
        rgb.fill(255, (y * width + x) * 3, (y * width + x) * 3 + 3);
    }
    const crop = alignedCrop(rgb, width, height, points);
    expect(crop).toHaveLength(112 * 112 * 3);
    const at = (x: number, y: number) => crop[(y * 112 + x) * 3] ?? Number.NaN;
    expect(at(38, 52)).toBeCloseTo((255 - 127.5) / 128, 5);
    expect(at(5, 5)).toBeCloseTo(-127.5 / 128, 5);
  });
});

describe.skipIf(onDatabaseRun)('MobileFaceNet golden embeddings', () => {
  beforeAll(async () => {
    await loadFaceModels();
  }, 120_000);

  it('pins the embedding of a fixed synthetic crop (model alone)', async () => {
    const model = mobileFaceNet() as Model;
    const [embedding = []] = await embedCrops(tf, model, [syntheticCrop()]);
    expect(embedding).toHaveLength(192);
    expect(Math.hypot(...embedding)).toBeCloseTo(1, 3);
    const golden = [-0.00534, 0.02668, 0.02005, 0.00353, -0.06547, -0.01622];
    golden.forEach((value, i) => expect(Math.abs((embedding[i] ?? 0) - value)).toBeLessThan(1e-4));

    // Before the L2 normalisation: its norm moves with any change of weights.
    const tfx = tf as unknown as Tf;
    const input = tfx.tensor4d(syntheticCrop(), [1, 112, 112, 3]);
    try {
      const raw = await model.execute(input, 'MobileFaceNet/Logits/SpatialSqueeze').data();
      expect(Math.abs(Math.hypot(...raw) - 24.7935)).toBeLessThan(1e-3);
      expect(Math.abs((raw[4] ?? 0) - -1.6231)).toBeLessThan(1e-3);
    } finally {
      input.dispose();
    }
  });

  it('describes a face by its crop and its mirror together, the same either way round', async () => {
    const model = mobileFaceNet() as Model;
    // Lopsided on purpose: bright on the left third, a ramp elsewhere.
    const crop = syntheticCrop().map((x, i) => (Math.floor(i / 3) % 112 < 37 ? 0.8 : x));
    const mirror = mirroredCrop(crop);
    // A mirror is a left-right swap of whole pixels (all three channels), undone by another.
    expect(mirror[0]).toBe(crop[(112 - 1) * 3]);
    expect(mirror[2]).toBe(crop[(112 - 1) * 3 + 2]);
    expect(mirror[(5 * 112 + 7) * 3 + 1]).toBe(crop[(5 * 112 + 104) * 3 + 1]);
    expect(Array.from(mirroredCrop(mirror))).toEqual(Array.from(crop));

    const [plain = [], mirrored = []] = await embedCrops(tf, model, [crop, mirror]);
    const described = await embedFace(tf, model, crop);
    expect(described).toHaveLength(192);
    expect(Math.hypot(...described)).toBeCloseTo(1, 5);
    const sum = plain.map((x, i) => x + (mirrored[i] ?? 0));
    const norm = Math.hypot(...sum);
    sum.forEach((x, i) => expect(Math.abs((described[i] ?? 0) - x / norm)).toBeLessThan(1e-6));
    // The network itself is not mirror-symmetric: the two halves differ...
    expect(1 - plain.reduce((s, x, i) => s + x * (mirrored[i] ?? 0), 0)).toBeGreaterThan(0.01);
    // ...and the average is the same for a face and its mirror image.
    const fromMirror = await embedFace(tf, model, mirror);
    fromMirror.forEach((x, i) => expect(Math.abs(x - (described[i] ?? 0))).toBeLessThan(1e-5));
  });

  describe('of dev p01-1 through the engine', () => {
    let engine: FacePool;
    beforeAll(async () => {
      engine = new FacePool({ inProcess: true });
      await engine.ready();
    }, 120_000);
    afterAll(async () => {
      await engine?.close();
    });

    it('pins the leading values and norm of the 192-d embedding', async () => {
      const face = await engine.analyze(await devPhoto('p01-1.jpg'));
      expect(face.descriptor).toHaveLength(128);
      expect(face.mobileDescriptor).toHaveLength(192);
      expect(Math.abs(Math.hypot(...face.mobileDescriptor) - 1)).toBeLessThan(1e-3);
      // With the mirror average (embedFace); the crop alone gave
      // [0.005, -0.01303, -0.00313, -0.01114, 0.00761, -0.05746].
      const golden = [0.00577, -0.01213, -0.00168, -0.00917, 0.0067, -0.04706];
      golden.forEach((value, i) =>
        expect(Math.abs((face.mobileDescriptor[i] ?? 0) - value)).toBeLessThan(1e-3),
      );
    });
  });
});
