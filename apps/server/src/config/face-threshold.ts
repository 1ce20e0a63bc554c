/**
 * Default decision threshold on the fused distance (biometrics/descriptor.ts:
 * match when faceDistance < threshold; a typical dev impostor pair scores 1).
 * Chosen by `npm run face:fusion-study -w research`
 * (research/face/fusion-study.ts) on fixtures/faces/dev only, as is
 * and degraded (small, blur, dark, jpeg q10: research/face/degrade.ts), with
 * the gates of DEFAULT_FACE_CORE_OPTIONS. Policy: FMR <= 0.1% of the dev
 * impostor pairs where the data allows it; with 978 impostor pairs (137 as
 * is, 841 degraded vs as is) 0.1% is under one pair, so the threshold is
 * FMR 0 on dev and degraded dev: the largest two-decimal value at least 0.01
 * under the smallest impostor score (0.704, p03-1 darkened vs p02-1). A
 * normal fitted to the 978 impostor scores (mean 1.006, sd 0.104) puts its
 * 0.1% quantile at 0.685: the same point from the other side.
 * Last run (291 genuine / 978 impostor): EER 1.0%; at 0.69 FNMR 10.7% and
 * FMR 0 pooled (as is: FNMR 5.9%, FMR 0), p01-1 vs p05-1 at 0.736
 * (rejected; the v1 engine, face-api alone at 0.57, accepted it at 0.550).
 * For comparison, on the same pairs: face-api alone EER 2.3%, FNMR 34.4% at
 * FMR 0; MobileFaceNet alone EER 1.5%, FNMR 16.5% at FMR 0 (27.5% without
 * the mirror average); fused 6.5% (9.3% without the mirror average).
 * With multi-capture enrolment the mean rule (compareWithEnrolment) gives
 * FNMR 1.8%, FMR 0 at 0.69. With so few pairs the value is coarse: re-run
 * the study when the engine or its gates change.
 * Deployments set FACE_MATCH_THRESHOLD (on this fused scale; a value below
 * 0.69 is stricter), and a unit may set a stricter one of its own
 * (FACE_MATCH_THRESHOLD_BY_UNIT); holdout/ only measures it
 * (bench/face.bench.ts). Kept in the configuration layer, away from the
 * models, so that the configuration checks those values without importing
 * the face engine (biometrics/descriptor.ts re-exports it for the engine).
 */
export const DEFAULT_FACE_MATCH_THRESHOLD = 0.69;
