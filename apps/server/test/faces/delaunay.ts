/**
 * A small Bowyer–Watson Delaunay triangulation for the synthetic takes'
 * control points (a few hundred at most, so the O(n²) form is plenty and
 * keeps the project free of a geometry dependency).
 */

export type Point = readonly [number, number];
export type Triangle = readonly [number, number, number];

type Working = { a: number; b: number; c: number; cx: number; cy: number; r2: number };

function circumcircle(points: Point[], a: number, b: number, c: number): Working {
  const [ax, ay] = points[a]!;
  const [bx, by] = points[b]!;
  const [cx, cy] = points[c]!;
  const d = 2 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by));
  if (Math.abs(d) < 1e-12) {
    // Collinear: a circle so large that any later point falls in it, which
    // lets the next insertion replace this sliver.
    return { a, b, c, cx: (ax + bx + cx) / 3, cy: (ay + by + cy) / 3, r2: Infinity };
  }
  const a2 = ax * ax + ay * ay;
  const b2 = bx * bx + by * by;
  const c2 = cx * cx + cy * cy;
  const ux = (a2 * (by - cy) + b2 * (cy - ay) + c2 * (ay - by)) / d;
  const uy = (a2 * (cx - bx) + b2 * (ax - cx) + c2 * (bx - ax)) / d;
  return { a, b, c, cx: ux, cy: uy, r2: (ax - ux) ** 2 + (ay - uy) ** 2 };
}

/**
 * Triangles (indices into `input`) of the Delaunay triangulation. Points
 * closer than `mergeDistance` to an earlier one are left out (a closed
 * mouth puts inner and outer lip points on top of each other): they take no
 * part in the mesh, and the point kept beside them carries that patch.
 */
export function delaunay(input: readonly Point[], mergeDistance = 0.5): Triangle[] {
  const points: Point[] = [...input];
  const n = points.length;
  if (n < 3) return [];
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const [x, y] of points) {
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x);
    maxY = Math.max(maxY, y);
  }
  const span = Math.max(maxX - minX, maxY - minY, 1);
  const midX = (minX + maxX) / 2;
  const midY = (minY + maxY) / 2;
  // The super triangle: large enough to contain everything, small enough
  // to keep the circumcircle arithmetic precise.
  points.push(
    [midX - 20 * span, midY - span],
    [midX, midY + 20 * span],
    [midX + 20 * span, midY - span],
  );
  let triangles: Working[] = [circumcircle(points, n, n + 1, n + 2)];
  const merge2 = mergeDistance * mergeDistance;

  for (let i = 0; i < n; i++) {
    const [px, py] = points[i]!;
    let duplicate = false;
    for (let j = 0; j < i && !duplicate; j++) {
      const [qx, qy] = points[j]!;
      duplicate = (px - qx) ** 2 + (py - qy) ** 2 < merge2;
    }
    if (duplicate) continue;
    const bad: Working[] = [];
    const kept: Working[] = [];
    for (const t of triangles) {
      if ((px - t.cx) ** 2 + (py - t.cy) ** 2 < t.r2) bad.push(t);
      else kept.push(t);
    }
    // The hole's boundary: edges of the removed triangles that only one of
    // them has.
    const edgeCount = new Map<string, [number, number, number]>();
    for (const t of bad) {
      for (const [u, v] of [
        [t.a, t.b],
        [t.b, t.c],
        [t.c, t.a],
      ] as const) {
        const key = u < v ? `${u},${v}` : `${v},${u}`;
        const seen = edgeCount.get(key);
        if (seen) seen[2]++;
        else edgeCount.set(key, [u, v, 1]);
      }
    }
    for (const [u, v, count] of edgeCount.values()) {
      if (count === 1) kept.push(circumcircle(points, u, v, i));
    }
    triangles = kept;
  }
  return triangles
    .filter((t) => t.a < n && t.b < n && t.c < n)
    .map((t) => [t.a, t.b, t.c] as const);
}

/** A regular grid of (cols+1) x (rows+1) points, row by row: two triangles per cell. */
export function gridTriangles(cols: number, rows: number): Triangle[] {
  const out: Triangle[] = [];
  const at = (c: number, r: number) => r * (cols + 1) + c;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      out.push(
        [at(c, r), at(c + 1, r), at(c + 1, r + 1)],
        [at(c, r), at(c + 1, r + 1), at(c, r + 1)],
      );
    }
  }
  return out;
}
