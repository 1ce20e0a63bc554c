/** Number of live TensorFlow.js tensors on this thread; tests use it to prove nothing leaks per call. */
import { tf } from '../../src/biometrics/face-runtime.mjs';

export function liveTensorCount(): number {
  return tf.memory().numTensors;
}
