/**
 * The one-to-many face search behind "Possíveis fraudes" (modules/fraud):
 * each exam's face (the mean of its captures' descriptors, fraud/exam-face.ts)
 * is searched among the unit's exams of the last FRAUD_WINDOW_DAYS days, and
 * two exams of different CPFs whose faces are closer than
 * FRAUD_MATCH_THRESHOLD (fused distance, biometrics/descriptor.ts) form a
 * case.
 *
 * A search over N exams multiplies the false matches of a 1:1 comparison by
 * N, so this threshold is far stricter than the 1:1 one (0.69). Chosen on
 * fixtures/faces/dev only by `npm run face:fraud-study -w research`
 * (research/face/fraud-study.ts), whose last run gave:
 * - exam faces made of two captures of one person, against another exam
 *   face of that person (no photo shared): 213 pairs, mean 0.387, sd 0.089,
 *   median 0.387, 90% under 0.511 (single dev photos: 34 pairs, median
 *   0.548); these are expressive studio portraits, so webcam captures of one
 *   sitting are expected closer;
 * - exam faces against other persons' faces: 566 impostor pairs, mean
 *   0.976, sd 0.088, the smallest 0.693.
 * No dev pair can show a rate of one in a billion, so the false-match rate
 * is that of a normal fitted to the impostor scores (EXAM_FACE_IMPOSTOR): an
 * assumption about the tail, not a measurement. Policy: at most one false
 * case in ten days at 1 000 exams a day. At 0.43 the modelled rate is
 * 2.7e-10 per comparison and the false cases a day (expectedFalseCasesPerDay,
 * 180-day window) are: 200 exams a day, 0.002; 1 000 a day (180 000 exams
 * in the window), 0.049, about one in 20 days; 5 000 a day, 1.2. A unit of
 * that size sets a stricter FRAUD_MATCH_THRESHOLD (0.40: 0.13 a day). On dev
 * 0.43 finds 68.5% of the genuine exam pairs above. Relatives (twins,
 * siblings) are real look-alikes no threshold separates: a case is a lead
 * for an auditor, never a result.
 */
export const FRAUD_MATCH_THRESHOLD = 0.43;

/** How long an exam's face stays searchable (within the photos' retention period). */
export const FRAUD_WINDOW_DAYS = 180;

/** The normal fitted to dev's exam-face impostor distances (see above). */
export const EXAM_FACE_IMPOSTOR = Object.freeze({ mean: 0.976, sd: 0.088 });

/** erfc(x), relative error under 1.2e-7 everywhere (Numerical Recipes' Chebyshev fit). */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 +
                            t *
                              (-1.13520398 +
                                t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** The modelled chance that two different persons' exam faces are closer than `threshold`. */
export function examFaceFalseMatchRate(threshold: number): number {
  const z = (threshold - EXAM_FACE_IMPOSTOR.mean) / EXAM_FACE_IMPOSTOR.sd;
  return 0.5 * erfc(-z / Math.SQRT2);
}

/**
 * False cases a day a unit should expect: each of the day's exams is
 * searched among the window's (examsPerDay x windowDays), each comparison a
 * chance of examFaceFalseMatchRate.
 */
export function expectedFalseCasesPerDay(options: {
  threshold: number;
  examsPerDay: number;
  windowDays: number;
}): number {
  const { threshold, examsPerDay, windowDays } = options;
  return examsPerDay * examsPerDay * windowDays * examFaceFalseMatchRate(threshold);
}
