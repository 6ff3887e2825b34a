#!/usr/bin/env python3
"""Renders a TLFEA run's output (DIR/output.h5 and DIR/steps/NNNNNN.h5) to a PNG with matplotlib
(offscreen, Agg): the deformed surface of every body, coloured by von Mises
stress (T10 / Q27 bodies) or by displacement magnitude (ANCF visualisation
meshes, or with --field displacement), plus joint points and contact points.

  tools/render_pictures.py DIR OUT.png [--step N] [--field von_mises|displacement]
                           [--scale S] [--elev E] [--azim A] [--title T]
                           [--scene SCENE.yaml | --up UP]

--step: output step index (default: the last one); --scale: displacement
magnification (default 1). The picture's vertical axis is the scene's "up":
-gravity of --scene (its `gravity` key), or --up (x, y, z, -x, -y, -z or three
numbers "ux,uy,uz"; default z), so gravity points down on the page. The scene
is rotated rigidly (the smallest rotation taking UP to the vertical); axis-
aligned UP keeps the scene's axis names on the plot's axes.
Needs python3-h5py, python3-matplotlib, python3-numpy (python3-yaml for --scene).
"""
import argparse
import os
import re
import sys

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from mpl_toolkits.mplot3d.art3d import Poly3DCollection  # noqa: E402

# Faces of the XDMF / VTK cells, each split into small planar polygons drawn
# with the cell's value. Hexahedron_27: per face its 3x3 node grid (corner,
# edge, corner / edge, face centre, edge / corner, edge, corner).
HEX27_FACES = [
    [0, 11, 3, 16, 20, 19, 4, 15, 7],  # x-
    [1, 9, 2, 17, 21, 18, 5, 13, 6],   # x+
    [0, 8, 1, 16, 22, 17, 4, 12, 5],   # y-
    [3, 10, 2, 19, 23, 18, 7, 14, 6],  # y+
    [0, 8, 1, 11, 24, 9, 3, 10, 2],    # z-
    [4, 12, 5, 15, 25, 13, 7, 14, 6],  # z+
]
HEX8_FACES = [[0, 3, 7, 4], [1, 2, 6, 5], [0, 1, 5, 4], [3, 2, 6, 7], [0, 1, 2, 3], [4, 5, 6, 7]]
# Tetrahedron_10: face = 3 vertices + 3 edge nodes (v0v1, v1v2, v2v0).
TET10_FACES = [[1, 2, 3, 5, 9, 8], [0, 3, 2, 7, 9, 6], [0, 1, 3, 4, 8, 7], [0, 2, 1, 6, 5, 4]]


def boundary(cells, faces, corners):
    """Faces (cell, local face) that belong to one cell only, by corner set."""
    count = {}
    for c, cell in enumerate(cells):
        for f, fn in enumerate(faces):
            key = tuple(sorted(cell[fn[i]] for i in corners))
            count.setdefault(key, []).append((c, f))
    return [v[0] for v in count.values() if len(v) == 1]


def polygons(kind, cells, x):
    """(polygon list, cell index per polygon) of the boundary surface."""
    polys, owner = [], []
    if kind == "Hexahedron_27":
        for c, f in boundary(cells, HEX27_FACES, [0, 2, 6, 8]):
            g = cells[c][HEX27_FACES[f]]
            for i, j in ((0, 0), (1, 0), (0, 1), (1, 1)):
                a = 3 * j + i
                polys.append(x[[g[a], g[a + 1], g[a + 4], g[a + 3]]])
                owner.append(c)
    elif kind == "Tetrahedron_10":
        for c, f in boundary(cells, TET10_FACES, [0, 1, 2]):
            v0, v1, v2, m01, m12, m20 = cells[c][TET10_FACES[f]]
            for tri in ((v0, m01, m20), (m01, v1, m12), (m20, m12, v2), (m01, m12, m20)):
                polys.append(x[list(tri)])
                owner.append(c)
    elif kind == "Triangle":  # a surface already (a rigid body's triangulation)
        for c, cell in enumerate(cells):
            polys.append(x[cell])
            owner.append(c)
    else:  # Hexahedron (linear)
        for c, f in boundary(cells, HEX8_FACES, [0, 1, 2, 3]):
            polys.append(x[cells[c][HEX8_FACES[f]]])
            owner.append(c)
    return polys, np.asarray(owner, dtype=int)


AXES = {"x": (1.0, 0.0, 0.0), "y": (0.0, 1.0, 0.0), "z": (0.0, 0.0, 1.0)}


def parse_up(text):
    """UP from 'x', '-y', ... or 'ux,uy,uz' (a unit vector)."""
    t = text.strip().lower()
    if t.lstrip("+-") in AXES:
        u = np.array(AXES[t.lstrip("+-")]) * (-1.0 if t.startswith("-") else 1.0)
    else:
        try:
            u = np.array([float(c) for c in t.split(",")])
        except ValueError:
            u = np.zeros(0)
        if u.shape != (3,):
            sys.exit(f"render_pictures.py: --up '{text}': expected x, y, z, -x, -y, -z or ux,uy,uz")
    n = np.linalg.norm(u)
    if not n > 0:
        sys.exit(f"render_pictures.py: --up '{text}' is the zero vector")
    return u / n


def scene_up(path):
    """-gravity of a scene file (docs/scene.md `gravity`: [gx, gy, gz] or
    {vector: [...], function: F}); z when the scene has no gravity."""
    import yaml  # only needed here

    with open(path) as f:
        doc = yaml.safe_load(f) or {}
    g = doc.get("gravity", [0, 0, 0])
    if isinstance(g, dict):
        g = g.get("vector", [0, 0, 0])
    g = np.asarray(g, dtype=float)
    if g.shape != (3,):
        sys.exit(f"render_pictures.py: {path}: gravity is not [gx, gy, gz]")
    n = np.linalg.norm(g)
    return -g / n if n > 0 else np.array([0.0, 0.0, 1.0])


def rotation_to_vertical(u):
    """R with R u = e_z: the rotation about u x e_z by the angle between them
    (Rodrigues' formula); u = -e_z turns about the x axis."""
    ez = np.array([0.0, 0.0, 1.0])
    c = float(np.dot(u, ez))
    if c < -1.0 + 1e-12:
        return np.diag([1.0, -1.0, -1.0])
    k = np.cross(u, ez)
    K = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
    return np.eye(3) + K + K @ K / (1.0 + c)


def axis_labels(R):
    """Plot axis labels: the signed scene axis each plot axis shows when R
    permutes the axes, else x', y', z' (rotated axes)."""
    labels = []
    for row in R:
        i = int(np.argmax(np.abs(row)))
        if abs(abs(row[i]) - 1.0) > 1e-9:
            return ["x' [m]", "y' [m]", "z' [m] (up, -gravity)"]
        labels.append(("-" if row[i] < 0 else "") + "xyz"[i] + " [m]")
    return labels


def main(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("dir")
    p.add_argument("png")
    p.add_argument("--step", type=int, default=-1)
    p.add_argument("--field", default="von_mises", choices=["von_mises", "displacement"])
    p.add_argument("--scale", type=float, default=1.0)
    p.add_argument("--elev", type=float, default=25.0)
    p.add_argument("--azim", type=float, default=-60.0)
    p.add_argument("--title", default=None)
    p.add_argument("--scene", default=None)
    p.add_argument("--up", default=None)
    a = p.parse_args(argv[1:])
    if a.scene and a.up:
        sys.exit("render_pictures.py: give --scene or --up, not both")
    up = scene_up(a.scene) if a.scene else parse_up(a.up or "z")
    R = rotation_to_vertical(up)

    # output.h5 holds the meshes, steps/NNNNNN.h5 the fields of each output step.
    names = sorted(n for n in os.listdir(f"{a.dir}/steps") if re.fullmatch(r"[0-9]{6}\.h5", n))
    if not names:
        sys.exit(f"render_pictures.py: no output steps in {a.dir}/steps")
    with h5py.File(f"{a.dir}/output.h5", "r") as h5, \
            h5py.File(f"{a.dir}/steps/{names[a.step]}", "r") as step:
        t = float(step["time"][()])
        fig = plt.figure(figsize=(8, 6), dpi=150)
        ax = fig.add_subplot(projection="3d")
        all_polys, all_vals, pts = [], [], []
        b = 0
        while f"mesh/body{b}" in h5:
            mesh = h5[f"mesh/body{b}"]
            kind = mesh.attrs["cell_type"]
            kind = kind.decode() if isinstance(kind, bytes) else str(kind)
            cells = np.asarray(mesh["topology"])
            ref = np.asarray(mesh["reference"])
            g = step[f"body{b}"]
            x = np.asarray(g["x"])
            x = ref + a.scale * (x - ref)
            polys, owner = polygons(kind, cells, x @ R.T)
            if a.field == "von_mises" and "von_mises" not in g:
                vals = np.full(len(owner), np.nan)  # no stress (ANCF): drawn grey
            elif a.field == "von_mises":
                vals = np.asarray(g["von_mises"])[owner]
            else:
                u = np.linalg.norm(np.asarray(g["x"]) - ref, axis=1)
                vals = np.array([u[cells[c]].mean() for c in owner])
            all_polys += polys
            all_vals.append(vals)
            pts.append(x @ R.T)
            b += 1
        vals = np.concatenate(all_vals) if all_vals else np.zeros(0)
        finite = vals[np.isfinite(vals)]
        lo_v = float(finite.min()) if finite.size else 0.0
        hi_v = float(finite.max()) if finite.size else 1.0
        norm = matplotlib.colors.Normalize(vmin=lo_v, vmax=hi_v if hi_v > lo_v else lo_v + 1.0)
        cmap = plt.get_cmap("viridis")
        colours = cmap(norm(np.nan_to_num(vals)))
        colours[~np.isfinite(vals)] = (0.7, 0.7, 0.7, 1.0)
        coll = Poly3DCollection(all_polys, facecolors=colours, edgecolors="k",
                                linewidths=0.15)
        ax.add_collection3d(coll)
        for group, colour in (("joints", "red"), ("contact", "orange")):
            if group in step:
                jx = np.asarray(step[group]["x"])
                if len(jx):
                    jx = jx @ R.T
                    ax.scatter(jx[:, 0], jx[:, 1], jx[:, 2], c=colour, s=12, depthshade=False)
        allx = np.concatenate(pts)
        lo, hi = allx.min(axis=0), allx.max(axis=0)
        c, r = 0.5 * (lo + hi), 0.5 * max(hi - lo) * 1.05 + 1e-12
        ax.set_xlim(c[0] - r, c[0] + r)
        ax.set_ylim(c[1] - r, c[1] + r)
        ax.set_zlim(c[2] - r, c[2] + r)
        ax.set_box_aspect((1, 1, 1))
        ax.view_init(elev=a.elev, azim=a.azim)
        xl, yl, zl = axis_labels(R)
        ax.set_xlabel(xl)
        ax.set_ylabel(yl)
        ax.set_zlabel(zl)
        sm = matplotlib.cm.ScalarMappable(norm=norm, cmap=cmap)
        label = "von Mises stress [Pa]" if a.field == "von_mises" else "|u| [m]"
        fig.colorbar(sm, ax=ax, shrink=0.6, label=label)
        ax.set_title(a.title or f"t = {t:.4g} s")
        fig.savefig(a.png, bbox_inches="tight")
    print(f"wrote {a.png} (step {names[a.step]}, t = {t:.6g} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
