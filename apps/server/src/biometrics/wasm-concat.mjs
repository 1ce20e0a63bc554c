// @ts-check
/**
 * A faster `Concat` for TensorFlow.js's wasm backend, where the slices to
 * join are narrow. The backend's own kernel copies one slice of each input
 * at a time with `subarray` and `set`: fine for wide slices, but face-api
 * joins an image's three colour planes back along the channel axis
 * (slices of one value each) before every network, which costs one
 * `subarray` and one `set` per pixel and plane: about 30 ms for a 416 x 416
 * detector input, nearly a fifth of a whole analysis. Here narrow slices
 * are copied value by value in one loop (about 1 ms). The result is the
 * same copy, value for value (wasm-concat.test.ts), so descriptors do not
 * change. Wide slices, strings and single inputs stay with the backend's
 * kernel. Plain JavaScript: the face workers load it without a TypeScript loader.
 */

/** Below this many values per slice the loop is faster than `subarray` and `set`. */
export const NARROW_SLICE = 16;

/**
 * Replaces the wasm backend's `Concat` kernel (once per thread: kernels are
 * registered per tfjs instance, which is per thread).
 * @param {any} tf the TensorFlow.js of face-api, with the wasm backend registered
 */
export function registerNarrowConcat(tf) {
  const original = tf.getKernel('Concat', 'wasm');
  if (!original) throw new Error('O kernel Concat do backend wasm não está registrado.');
  if (original.kernelFunc.narrowConcat) return;
  const backendKernel = original.kernelFunc;
  /** @param {any} args */
  const kernelFunc = (args) => {
    const { inputs, backend } = args;
    const axis = tf.util.parseAxisParam(args.attrs.axis, inputs[0].shape)[0];
    /** @type {any[]} */
    const present = inputs.filter((/** @type {any} */ t) => tf.util.sizeFromShape(t.shape) > 0);
    if (present.length < 2 || present[0].dtype === 'string') return backendKernel(args);
    /** @type {number[]} */
    const widths = present.map((t) => tf.util.sizeFromShape(t.shape.slice(axis)));
    if (Math.min(...widths) >= NARROW_SLICE) return backendKernel(args);
    const shapes = inputs.map((/** @type {any} */ t) => t.shape);
    tf.backend_util.assertParamsConsistent(shapes, axis);
    const out = backend.makeOutput(tf.backend_util.computeOutShape(shapes, axis), inputs[0].dtype);
    const rows = tf.util.sizeFromShape(present[0].shape.slice(0, axis));
    const rowWidth = widths.reduce((sum, width) => sum + width, 0);
    const target = backend.typedArrayFromHeap(out);
    let offset = 0;
    present.forEach((input, index) => {
      const source = backend.typedArrayFromHeap(input);
      const width = /** @type {number} */ (widths[index]);
      for (let row = 0; row < rows; row++) {
        let from = row * width;
        const end = from + width;
        let to = row * rowWidth + offset;
        while (from < end) target[to++] = source[from++];
      }
      offset += width;
    });
    return out;
  };
  kernelFunc.narrowConcat = true;
  // The backend's own kernel, for the side-by-side benchmark (bench:face-kernels).
  kernelFunc.backendKernel = backendKernel;
  tf.unregisterKernel('Concat', 'wasm');
  tf.registerKernel({ ...original, kernelFunc });
}
