/**
 * Presentation attacks of ONE still photo, for the synthetic takes: each a
 * take of steps.length + 2 pictures that tries to follow the challenge by
 * moving the flat picture (digitally, or as a printed page in front of the
 * camera), plus re-encoded and relit variants of a seeded sample of them.
 * None of them has a head's depth: every picture is a projective image
 * of one plane, or of a page bent on a cylinder.
 */
import { type FaceMove } from '@exame/shared';
import { NOSE_DIRECTION } from './head-model';
import {
  addNoise,
  adjustLight,
  affineAbout,
  between,
  blurImage,
  cloneImage,
  createRandom,
  decodeRgb,
  encodeJpeg,
  gradientRoom,
  hashSeed,
  pick,
  warpAffine,
  type Random,
  type RgbImage,
} from './mesh-warp';
import { printPage, renderPage, type PageBend, type PagePose } from './page-model';

export type AttackTake = { kind: string; variant: string; pictures: Buffer[] };

/** The framed photo and the engine's landmarks on it. */
export type Still = { name: string; frame: RgbImage; landmarks: readonly number[] };

type Base = { kind: string; variant: string; camera: boolean; images: RgbImage[] };
type Move = FaceMove | null;

const signOf = (move: FaceMove) => (move === 'left' || move === 'up' ? 1 : -1);
const sym = (random: Random, amplitude: number) => between(random, -amplitude, amplitude);

function faceGeometry(landmarks: readonly number[]) {
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < 68; i++) {
    minX = Math.min(minX, landmarks[2 * i]!);
    maxX = Math.max(maxX, landmarks[2 * i]!);
    minY = Math.min(minY, landmarks[2 * i + 1]!);
    maxY = Math.max(maxY, landmarks[2 * i + 1]!);
  }
  const width = Math.hypot(landmarks[32]! - landmarks[0]!, landmarks[33]! - landmarks[1]!);
  return { centre: [(minX + maxX) / 2, (minY + maxY) / 2] as const, width };
}

/** The digital attacks: the whole frame moved, as in the three shifted copies. */
function digitalBases(still: Still, moves: Move[], random: Random): Base[] {
  const { centre } = faceGeometry(still.landmarks);
  const frame = still.frame;
  const each = (
    kind: string,
    variant: string,
    transform: (move: Move, index: number) => Parameters<typeof affineAbout>[1],
  ): Base => ({
    kind,
    variant,
    camera: false,
    images: moves.map((move, i) => warpAffine(frame, affineAbout(centre, transform(move, i)))),
  });
  const burst = [
    pick(random, [-1, 1]) * between(random, 2, 6),
    pick(random, [-1, 1]) * between(random, 2, 6),
  ];
  const shear = between(random, 0.05, 0.15);
  return [
    each('shift', 'burst', (_, i) => ({ dx: i * burst[0]!, dy: i * burst[1]! })),
    each('shift', 'follow', (move, i) => {
      if (!move) return i === 0 ? {} : { dx: sym(random, 1.5), dy: sym(random, 1.5) };
      const [x, y] = NOSE_DIRECTION[move];
      const d = between(random, 4, 10);
      return { dx: x * d + sym(random, 1.5), dy: y * d + sym(random, 1.5) };
    }),
    each('scale', 'steps', (move) =>
      move ? uniform(1 + pick(random, [-1, 1]) * between(random, 0.03, 0.08)) : {},
    ),
    each('rotate', 'follow', (move) =>
      move ? { degrees: signOf(move) * between(random, 3, 10) } : {},
    ),
    each('shear', 'follow', (move) => {
      if (!move) return {};
      const squeeze = between(random, 0.88, 0.97);
      const [x, y] = NOSE_DIRECTION[move];
      const d = between(random, 3, 8);
      return x !== 0
        ? { shearX: x * shear, scaleX: squeeze, dx: x * d }
        : { shearY: y * shear, scaleY: squeeze, dy: y * d };
    }),
  ];
}

const uniform = (s: number) => ({ scaleX: s, scaleY: s });

type PagePlan = {
  variant: string;
  kind: 'perspective' | 'bend';
  turn: [number, number];
  margin: boolean;
  room: 'blurred' | 'gradient';
  distance?: number;
  bend?: PageBend;
  bentFromFirst?: boolean;
};

const PAGE_PLANS: PagePlan[] = [
  { kind: 'perspective', variant: 'turned-15-28', turn: [15, 28], margin: false, room: 'blurred' },
  {
    kind: 'perspective',
    variant: 'turned-30-45-margin',
    turn: [30, 45],
    margin: true,
    room: 'gradient',
  },
  {
    kind: 'perspective',
    variant: 'turned-close',
    turn: [15, 45],
    margin: false,
    room: 'blurred',
    distance: 300,
  },
  {
    kind: 'bend',
    variant: 'vertical-convex-80-from-first',
    turn: [15, 45],
    margin: false,
    room: 'blurred',
    bend: { axis: 0, arc: 80, convex: true },
    bentFromFirst: true,
  },
  {
    kind: 'bend',
    variant: 'vertical-convex-40-on-steps',
    turn: [15, 45],
    margin: true,
    room: 'gradient',
    bend: { axis: 0, arc: 40, convex: true },
    bentFromFirst: false,
  },
  {
    kind: 'bend',
    variant: 'horizontal-convex-60-from-first',
    turn: [15, 45],
    margin: false,
    room: 'blurred',
    bend: { axis: 90, arc: 60, convex: true },
    bentFromFirst: true,
  },
  {
    kind: 'bend',
    variant: 'diagonal45-convex-55-from-first',
    turn: [15, 45],
    margin: false,
    room: 'gradient',
    bend: { axis: 45, arc: 55, convex: true },
    bentFromFirst: true,
  },
  {
    kind: 'bend',
    variant: 'diagonal135-convex-80-on-steps',
    turn: [15, 45],
    margin: false,
    room: 'blurred',
    bend: { axis: -45, arc: 80, convex: true },
    bentFromFirst: false,
  },
  {
    kind: 'bend',
    variant: 'vertical-concave-30-from-first',
    turn: [15, 45],
    margin: false,
    room: 'blurred',
    bend: { axis: 0, arc: 30, convex: false },
    bentFromFirst: true,
  },
];

/** A printed page held up, turned in the direction each step asks. */
async function pageBases(still: Still, moves: Move[], random: Random): Promise<Base[]> {
  const { centre, width: faceWidth } = faceGeometry(still.landmarks);
  const rooms = {
    blurred: await blurImage(still.frame, 14, between(random, 0.5, 0.75)),
    gradient: gradientRoom(still.frame.width, still.frame.height, random),
  };
  return PAGE_PLANS.map((plan) => {
    const distance = plan.distance ?? between(random, 380, 600);
    // A tight bend wraps the page round: keep it within ±110° of the cylinder
    // (the face spans ±arc), as a photo wrapped on a bottle is cut to fit.
    const wrap = plan.bend ? (faceWidth * 110) / plan.bend.arc : Infinity;
    const page = printPage(
      still.frame,
      centre,
      Math.min(2.5 * faceWidth, wrap),
      plan.margin ? Math.round(0.12 * faceWidth) : 0,
      distance,
      faceWidth,
    );
    const turn = between(random, plan.turn[0], plan.turn[1]);
    const images = moves.map((move) => {
      const pose: PagePose = {
        yaw: sym(random, 3),
        pitch: sym(random, 3),
        roll: sym(random, 2),
        shift: [sym(random, 3), sym(random, 3)],
        bend: plan.bend && (move || plan.bentFromFirst) ? plan.bend : undefined,
      };
      if (move) {
        const angle = signOf(move) * turn * between(random, 0.9, 1.1);
        if (move === 'left' || move === 'right') pose.yaw = angle;
        else pose.pitch = angle;
        // The hand also carries the page a little the way the head would go.
        const [x, y] = NOSE_DIRECTION[move];
        pose.shift = [
          x * between(random, 0, 12) + sym(random, 3),
          y * between(random, 0, 12) + sym(random, 3),
        ];
      }
      return renderPage(page, pose, rooms[plan.room]);
    });
    return { kind: plan.kind, variant: plan.variant, camera: true, images };
  });
}

type Finish = { reencode?: number; light?: { brightness: number; contrast: number } };

async function finish(base: Base, random: Random, options: Finish = {}): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for (const image of base.images) {
    const picture = cloneImage(image);
    if (base.camera) addNoise(picture, random, between(random, 1.5, 2.5));
    if (options.light) adjustLight(picture, options.light.brightness, options.light.contrast);
    let quality = base.camera ? between(random, 88, 92) : 90;
    if (options.reencode) {
      // Saved once at a low quality on the way (a messaging app, a screenshot tool), then sent.
      const degraded = await decodeRgb(await encodeJpeg(picture, options.reencode));
      picture.data.set(degraded.data);
      quality = 90;
    }
    out.push(await encodeJpeg(picture, quality));
  }
  return out;
}

/**
 * Every still-photo attack for `steps`: 14 base takes (shift x2, scale,
 * rotate, shear, perspective x3, bend x6) and 15 re-encoded and/or relit
 * variants of a seeded sample of them.
 */
export async function stillPhotoAttacks(
  still: Still,
  steps: readonly FaceMove[],
  seed: number,
): Promise<AttackTake[]> {
  const random = createRandom(hashSeed('attacks', still.name, seed, steps.join(',')));
  const moves: Move[] = [null, ...steps, null];
  const bases = [...digitalBases(still, moves, random), ...(await pageBases(still, moves, random))];
  const takes: AttackTake[] = [];
  for (const base of bases)
    takes.push({ kind: base.kind, variant: base.variant, pictures: await finish(base, random) });
  const order = bases.map((base) => ({ base, key: random() })).sort((a, b) => a.key - b.key);
  for (let k = 0; k < 15; k++) {
    const { base } = order[k % order.length]!;
    const reencode = k < 6 || k >= 12 ? Math.round(between(random, 30, 95)) : undefined;
    const light =
      k >= 6
        ? { brightness: between(random, 0.6, 1.4), contrast: between(random, 0.6, 1.4) }
        : undefined;
    const suffix = [reencode ? 'jpeg' : '', light ? 'light' : ''].filter(Boolean).join('+');
    takes.push({
      kind: base.kind,
      variant: `${base.variant}+${suffix}`,
      pictures: await finish(base, random, { reencode, light }),
    });
  }
  return takes;
}
