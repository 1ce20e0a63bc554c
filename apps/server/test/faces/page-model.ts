/**
 * A printed photo held in front of the webcam, for the presentation
 * attacks of the synthetic takes: the page (a crop of the frame around the
 * face, maybe with a white margin) as a grid in 3-D, flat or bent on a
 * cylinder, turned about its own centre, seen by a pinhole camera, and
 * drawn over a still room with the same renderer as the head.
 */
import { gridTriangles } from './delaunay';
import { blankImage, cloneImage, drawMesh, type RgbImage } from './mesh-warp';

export const FOCAL_PX = 600;
const GRID = 24;

export type Page = {
  /** What is printed: the crop of the frame, inside its white margin. */
  texture: RgbImage;
  /** Where the texture's centre appears in the frame when the page faces the camera. */
  centre: readonly [number, number];
  /** Camera to page, mm. The print is sized so that, facing the camera, it matches the frame. */
  distance: number;
  /** Half the face width on the print, mm (the bend's curvature is set against it). */
  faceHalfWidthMm: number;
};

export type PageBend = {
  /** Degrees of the cylinder's axis from the vertical: 0 vertical, 90 horizontal, ±45 diagonal. */
  axis: number;
  /** Degrees of the cylinder the face's half width spans (up to 80). */
  arc: number;
  /** Convex: the page's middle towards the camera, its edges away. */
  convex: boolean;
};

export type PagePose = {
  /** Degrees about the page's vertical axis; > 0 turns its image-right side away (as a head turning left). */
  yaw: number;
  /** Degrees about its horizontal axis; > 0 turns its top away (as a head looking up). */
  pitch: number;
  /** Degrees in the image plane. */
  roll: number;
  /** Hand movement, px in the frame. */
  shift: readonly [number, number];
  bend?: PageBend | undefined;
};

/** Cuts the page out of the frame: `size` px wide, portrait, centred on `centre`. */
export function printPage(
  frame: RgbImage,
  centre: readonly [number, number],
  width: number,
  marginPx: number,
  distance: number,
  faceWidthPx: number,
): Page {
  const w = Math.round(width);
  const h = Math.round(width * 1.25);
  const texture = blankImage(w + 2 * marginPx, h + 2 * marginPx);
  texture.data.fill(240);
  const left = Math.round(centre[0] - w / 2);
  const top = Math.round(centre[1] - h / 2);
  for (let y = 0; y < h; y++) {
    const sy = Math.min(frame.height - 1, Math.max(0, top + y));
    for (let x = 0; x < w; x++) {
      const sx = Math.min(frame.width - 1, Math.max(0, left + x));
      const from = (sy * frame.width + sx) * 3;
      const to = ((y + marginPx) * texture.width + x + marginPx) * 3;
      texture.data[to] = frame.data[from]!;
      texture.data[to + 1] = frame.data[from + 1]!;
      texture.data[to + 2] = frame.data[from + 2]!;
    }
  }
  const mmPerPx = distance / FOCAL_PX;
  return {
    texture,
    centre: [left + w / 2, top + h / 2],
    distance,
    faceHalfWidthMm: (faceWidthPx / 2) * mmPerPx,
  };
}

/** Draws the page over `room` as the camera sees it in `pose`. */
export function renderPage(page: Page, pose: PagePose, room: RgbImage): RgbImage {
  const { texture, distance } = page;
  const mmPerPx = distance / FOCAL_PX;
  const cols = GRID;
  const rows = GRID;
  const n = (cols + 1) * (rows + 1);
  const source = new Float64Array(2 * n);
  const camera = new Float64Array(3 * n);
  const rad = Math.PI / 180;
  const yaw = pose.yaw * rad;
  const pitch = pose.pitch * rad;
  const roll = pose.roll * rad;
  const bend = pose.bend;
  const radius = bend ? page.faceHalfWidthMm / Math.max(1e-3, bend.arc * rad) : 0;
  const axis = bend ? bend.axis * rad : 0;
  const centreX = (page.centre[0] + pose.shift[0] - room.width / 2) * mmPerPx;
  const centreY = (page.centre[1] + pose.shift[1] - room.height / 2) * mmPerPx;
  for (let r = 0; r <= rows; r++) {
    for (let c = 0; c <= cols; c++) {
      const i = r * (cols + 1) + c;
      const tx = (c / cols) * (texture.width - 1);
      const ty = (r / rows) * (texture.height - 1);
      source[2 * i] = tx;
      source[2 * i + 1] = ty;
      // Page coordinates in mm about its centre, z towards the camera.
      let x = (tx - (texture.width - 1) / 2) * mmPerPx;
      let y = (ty - (texture.height - 1) / 2) * mmPerPx;
      let z = 0;
      if (bend) {
        // Across the axis, the paper wraps onto the cylinder (its length kept).
        const across = x * Math.cos(axis) + y * Math.sin(axis);
        const along = -x * Math.sin(axis) + y * Math.cos(axis);
        const angle = across / radius;
        const wrapped = radius * Math.sin(angle);
        z = radius * (1 - Math.cos(angle)) * (bend.convex ? -1 : 1);
        x = wrapped * Math.cos(axis) - along * Math.sin(axis);
        y = wrapped * Math.sin(axis) + along * Math.cos(axis);
      }
      // In-plane roll, then yaw and pitch about the page's centre.
      const rx = x * Math.cos(roll) - y * Math.sin(roll);
      const ry = x * Math.sin(roll) + y * Math.cos(roll);
      const yx = rx * Math.cos(yaw) + z * Math.sin(yaw);
      const yz = -rx * Math.sin(yaw) + z * Math.cos(yaw);
      const py = ry * Math.cos(pitch) - yz * Math.sin(pitch);
      const pz = ry * Math.sin(pitch) + yz * Math.cos(pitch);
      camera[3 * i] = centreX + yx;
      camera[3 * i + 1] = centreY + py;
      camera[3 * i + 2] = distance - pz;
    }
  }
  const target = new Float64Array(2 * n);
  const depth = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const Z = Math.max(1, camera[3 * i + 2]!);
    target[2 * i] = (FOCAL_PX * camera[3 * i]!) / Z + room.width / 2;
    target[2 * i + 1] = (FOCAL_PX * camera[3 * i + 1]!) / Z + room.height / 2;
    depth[i] = -Z;
  }
  const triangles = gridTriangles(cols, rows);
  const out = cloneImage(room);
  drawMesh(texture, out, { source, target, depth, triangles, shade: shading(camera, triangles) });
  return out;
}

/** Lambertian light from the upper left per vertex, 1 where the page faces the camera. */
function shading(camera: Float64Array, triangles: ReturnType<typeof gridTriangles>): Float64Array {
  const norm = Math.hypot(0.3, 0.4, 1);
  const [lx, ly, lz] = [-0.3 / norm, -0.4 / norm, -1 / norm];
  const facing = 0.55 + 0.45 * -lz;
  const n = camera.length / 3;
  const normals = new Float64Array(3 * n);
  for (const [a, b, c] of triangles) {
    const u = [0, 1, 2].map((k) => camera[3 * b + k]! - camera[3 * a + k]!);
    const v = [0, 1, 2].map((k) => camera[3 * c + k]! - camera[3 * a + k]!);
    let nx = u[1]! * v[2]! - u[2]! * v[1]!;
    let ny = u[2]! * v[0]! - u[0]! * v[2]!;
    let nz = u[0]! * v[1]! - u[1]! * v[0]!;
    // The side the camera sees: its normal points back along -Z.
    const sign = (nz > 0 ? -1 : 1) / (Math.hypot(nx, ny, nz) || 1);
    nx *= sign;
    ny *= sign;
    nz *= sign;
    for (const k of [a, b, c]) {
      normals[3 * k] = normals[3 * k]! + nx;
      normals[3 * k + 1] = normals[3 * k + 1]! + ny;
      normals[3 * k + 2] = normals[3 * k + 2]! + nz;
    }
  }
  const out = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const [nx, ny, nz] = [normals[3 * k]!, normals[3 * k + 1]!, normals[3 * k + 2]!];
    const len = Math.hypot(nx, ny, nz) || 1;
    out[k] = (0.55 + 0.45 * Math.max(0, (nx * lx + ny * ly + nz * lz) / len)) / facing;
  }
  return out;
}
