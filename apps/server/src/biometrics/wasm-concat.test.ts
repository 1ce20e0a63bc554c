import { beforeAll, describe, expect, it } from 'vitest';
import { loadFaceModels, tf } from './face-runtime.mjs';
import { NARROW_SLICE } from './wasm-concat.mjs';

type Tensor = { dataSync(): ArrayLike<number>; shape: number[]; dtype: string; dispose(): void };
type Kernel = { kernelFunc: ((args: unknown) => unknown) & { narrowConcat?: boolean } };
const tfjs = tf as {
  getKernel(name: string, backend: string): Kernel | undefined;
  getBackend(): string;
  concat(tensors: Tensor[], axis: number): Tensor;
  tensor(values: number[] | boolean[], shape: number[], dtype: string): Tensor;
};

function values(shape: number[], dtype: string, seed: number): number[] | boolean[] {
  const size = shape.reduce((a, b) => a * b, 1);
  const list = Array.from({ length: size }, (_, i) => ((i * 7919 + seed * 104_729) % 1000) - 500);
  if (dtype === 'bool') return list.map((v) => v > 0);
  if (dtype === 'float32') return list.map((v) => v / 7);
  return list;
}

describe('the wasm backend’s Concat for narrow slices', () => {
  beforeAll(async () => {
    await loadFaceModels();
  }, 60_000);

  it('is the engine’s kernel once the models are loaded', () => {
    expect(tfjs.getBackend()).toBe('wasm');
    expect(tfjs.getKernel('Concat', 'wasm')?.kernelFunc.narrowConcat).toBe(true);
  });

  const cases: Array<{ shapes: number[][]; axis: number; dtype: string }> = [
    // face-api's colour planes joined back before each network.
    {
      shapes: [
        [1, 9, 7, 1],
        [1, 9, 7, 1],
        [1, 9, 7, 1],
      ],
      axis: 3,
      dtype: 'float32',
    },
    {
      shapes: [
        [3, 5, 5, 1],
        [3, 5, 5, 1],
        [3, 5, 5, 1],
      ],
      axis: -1,
      dtype: 'int32',
    },
    // Mixed widths, one narrow and one wide, on an inner axis.
    {
      shapes: [
        [2, 4, 3, 2],
        [2, 4, 3, NARROW_SLICE + 5],
      ],
      axis: 3,
      dtype: 'float32',
    },
    {
      shapes: [
        [2, 3, 4],
        [2, 1, 4],
        [2, 2, 4],
      ],
      axis: 1,
      dtype: 'int32',
    },
    {
      shapes: [
        [4, 2],
        [4, 3],
      ],
      axis: 1,
      dtype: 'bool',
    },
    // An empty input is left out; the wide and the outer-axis cases go to the backend.
    {
      shapes: [
        [2, 0, 3],
        [2, 2, 3],
      ],
      axis: 1,
      dtype: 'float32',
    },
    {
      shapes: [
        [2, 3, 40],
        [2, 3, 40],
      ],
      axis: 2,
      dtype: 'float32',
    },
    {
      shapes: [
        [2, 3],
        [5, 3],
      ],
      axis: 0,
      dtype: 'int32',
    },
  ];

  it.each(cases)(
    '$shapes on axis $axis ($dtype): the same values as an element-by-element join',
    ({ shapes, axis, dtype }) => {
      const inputs = shapes.map((shape, i) => tfjs.tensor(values(shape, dtype, i), shape, dtype));
      const joined = tfjs.concat(inputs, axis);
      // The expected join, computed here from the inputs' values.
      const rank = shapes[0]!.length;
      const at = axis < 0 ? axis + rank : axis;
      const rows = shapes[0]!.slice(0, at).reduce((a, b) => a * b, 1);
      const widths = shapes.map((shape) => shape.slice(at).reduce((a, b) => a * b, 1));
      const expected: number[] = [];
      const data = inputs.map((input) => Array.from(input.dataSync()));
      for (let row = 0; row < rows; row++) {
        data.forEach((list, i) =>
          expected.push(...list.slice(row * widths[i]!, (row + 1) * widths[i]!)),
        );
      }
      const outShape = [...shapes[0]!];
      outShape[at] = shapes.reduce((sum, shape) => sum + shape[at]!, 0);
      expect(joined.shape).toEqual(outShape);
      expect(joined.dtype).toBe(dtype);
      expect(Array.from(joined.dataSync())).toEqual(expected);
      for (const tensor of [...inputs, joined]) tensor.dispose();
    },
  );
});
