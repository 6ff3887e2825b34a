#!/usr/bin/env python3
"""Writes the Gmsh MSH 4.1 ASCII meshes of the ANCF file-reader tests and the
ancf_beam_net example (no gmsh needed: the geometry is simple enough to place
the nodes directly, and the files use only what read_gmsh_ancf reads).

  python3 make_ancf_meshes.py          (from tests/data)

writes quarter_ring.msh, bathe_bend.msh, beam_net.msh (read by
examples/ancf_beam_net.yaml), half_cylinder_quads.msh,
quarter_strip_quads.msh, l_frame.msh, tire_quads.msh (read by
examples/rigid_wheel_tire.yaml).
"""
import math
import os


def write_msh(path, nodes, groups):
    """nodes: list of (x, y, z), tags 1..n. groups: list of (dim, name,
    elements) with elements a list of (gmsh type, [node tags]); each group
    becomes one entity with one physical tag."""
    out = ["$MeshFormat", "4.1 0 8", "$EndMeshFormat", "$PhysicalNames", str(len(groups))]
    for i, (dim, name, _) in enumerate(groups):
        out.append('%d %d "%s"' % (dim, i + 1, name))
    out.append("$EndPhysicalNames")
    count = [0, 0, 0, 0]
    ents = {0: [], 1: [], 2: [], 3: []}
    for i, (dim, name, els) in enumerate(groups):
        count[dim] += 1
        tag = count[dim]
        if dim == 0:
            x = nodes[els[0][1][0] - 1]
            ents[0].append("%d %.17g %.17g %.17g 1 %d" % (tag, x[0], x[1], x[2], i + 1))
        else:
            ents[dim].append("%d 0 0 0 1 1 1 1 %d 0" % (tag, i + 1))
        groups[i] = (dim, name, els, tag)
    out.append("$Entities")
    out.append("%d %d %d %d" % tuple(count))
    for d in range(4):
        out += ents[d]
    out.append("$EndEntities")
    n = len(nodes)
    out += ["$Nodes", "1 %d 1 %d" % (n, n), "3 1 0 %d" % n]
    out += [str(i + 1) for i in range(n)]
    out += ["%.17g %.17g %.17g" % tuple(x) for x in nodes]
    out.append("$EndNodes")
    total = sum(len(g[2]) for g in groups)
    out += ["$Elements", "%d %d 1 %d" % (len(groups), total, total)]
    tag = 1
    for dim, name, els, etag in groups:
        out.append("%d %d %d %d" % (dim, etag, els[0][0], len(els)))
        for t, ns in els:
            out.append("%d %s" % (tag, " ".join(str(k) for k in ns)))
            tag += 1
    out.append("$EndElements")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def arc(path, radius, angle, elements, name):
    """Arc of the given radius and angle in the x-y plane, from (0, 0, 0)
    along +x, turning toward +y (centre (0, R, 0)); 2-node lines."""
    nodes = []
    for i in range(elements + 1):
        a = angle * i / elements
        nodes.append((radius * math.sin(a), radius * (1 - math.cos(a)), 0.0))
    lines = [(1, [i + 1, i + 2]) for i in range(elements)]
    write_msh(path, nodes, [(1, name, lines), (0, "clamp", [(15, [1])]),
                            (0, "tip", [(15, [elements + 1])])])


def net(path, cells, size):
    """(cells + 1) x (cells + 1) grid lines in the x-y plane, spacing size,
    one 2-node line per cell edge; physical points at the 4 corners
    ("corners"), physical lines "beams"."""
    m = cells + 1
    nodes = [(size * i, size * j, 0.0) for j in range(m) for i in range(m)]
    idx = lambda i, j: 1 + i + m * j
    lines = []
    for j in range(m):
        for i in range(cells):
            lines.append((1, [idx(i, j), idx(i + 1, j)]))
    for i in range(m):
        for j in range(cells):
            lines.append((1, [idx(i, j), idx(i, j + 1)]))
    corners = [(15, [idx(0, 0)]), (15, [idx(cells, 0)]), (15, [idx(0, cells)]),
               (15, [idx(cells, cells)])]
    # One entity per corner point, all in the physical group "corners".
    groups = [(1, "beams", lines)]
    write_msh(path, nodes, groups + [(0, "corners", [c]) for c in corners])


def half_cylinder(path, radius, length, nc, nl):
    """Half cylinder x^2 + z^2 = R^2, z >= 0, axis y in [0, length]: nc
    quadrangles around, nl along; physical surface "shell", physical curves
    "edge0" (y = 0) and "edge1" (y = length)."""
    nodes = []
    for j in range(nl + 1):
        for i in range(nc + 1):
            a = math.pi * i / nc
            nodes.append((radius * math.cos(a), length * j / nl, radius * math.sin(a)))
    idx = lambda i, j: 1 + i + (nc + 1) * j
    quads = [(3, [idx(i, j), idx(i + 1, j), idx(i + 1, j + 1), idx(i, j + 1)])
             for j in range(nl) for i in range(nc)]
    e0 = [(1, [idx(i, 0), idx(i + 1, 0)]) for i in range(nc)]
    e1 = [(1, [idx(i, nl), idx(i + 1, nl)]) for i in range(nc)]
    write_msh(path, nodes, [(2, "shell", quads), (1, "edge0", e0), (1, "edge1", e1)])


def quarter_strip(path, radius, width, nc):
    """Quarter cylinder strip: x = R cos a, z = R sin a, a in [0, pi/2], y in
    [0, width] (axis y), nc quadrangles around and one across; physical
    surface "strip", physical curves "clamp" (a = 0) and "tip" (a = pi/2)."""
    nodes = []
    for j in range(2):
        for i in range(nc + 1):
            a = 0.5 * math.pi * i / nc
            nodes.append((radius * math.cos(a), width * j, radius * math.sin(a)))
    idx = lambda i, j: 1 + i + (nc + 1) * j
    quads = [(3, [idx(i, 0), idx(i + 1, 0), idx(i + 1, 1), idx(i, 1)]) for i in range(nc)]
    write_msh(path, nodes, [(2, "strip", quads), (1, "clamp", [(1, [idx(0, 0), idx(0, 1)])]),
                            (1, "tip", [(1, [idx(nc, 0), idx(nc, 1)])])])


def l_frame(path, a, b, n):
    """Right-angle frame: leg 1 from (0, 0, 0) to (a, 0, 0), leg 2 from
    (a, 0, 0) to (a, b, 0), n two-node lines each (physical line "frame"),
    physical points "clamp" (origin) and "tip" ((a, b, 0))."""
    nodes = [(a * i / n, 0.0, 0.0) for i in range(n + 1)]
    nodes += [(a, b * j / n, 0.0) for j in range(1, n + 1)]
    lines = [(1, [k + 1, k + 2]) for k in range(2 * n)]
    write_msh(path, nodes, [(1, "frame", lines), (0, "clamp", [(15, [1])]),
                            (0, "tip", [(15, [2 * n + 1])])])


def tire(path, radius, width, nc, nw):
    """Closed cylindrical band (a tire's tread) x = R cos a, y = R sin a,
    z in [-width / 2, width / 2] (axis z): nc quadrangles around (the last
    one closing the ring on the first nodes), nw across; physical surface
    "tread", physical curves "rim0" (z = -width / 2) and "rim1" (z = +width / 2)."""
    nodes = []
    for j in range(nw + 1):
        for i in range(nc):
            a = 2.0 * math.pi * i / nc
            nodes.append((radius * math.cos(a), radius * math.sin(a), width * (j / nw - 0.5)))
    idx = lambda i, j: 1 + (i % nc) + nc * j
    quads = [(3, [idx(i, j), idx(i + 1, j), idx(i + 1, j + 1), idx(i, j + 1)])
             for j in range(nw) for i in range(nc)]
    e0 = [(1, [idx(i, 0), idx(i + 1, 0)]) for i in range(nc)]
    e1 = [(1, [idx(i, nw), idx(i + 1, nw)]) for i in range(nc)]
    write_msh(path, nodes, [(2, "tread", quads), (1, "rim0", e0), (1, "rim1", e1)])


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    arc(os.path.join(here, "quarter_ring.msh"), 1.0, math.pi / 2, 32, "ring")
    arc(os.path.join(here, "bathe_bend.msh"), 100.0, math.pi / 4, 32, "bend")
    net(os.path.join(here, "beam_net.msh"), 3, 1.0)
    half_cylinder(os.path.join(here, "half_cylinder_quads.msh"), 1.0, 2.0, 8, 4)
    quarter_strip(os.path.join(here, "quarter_strip_quads.msh"), 1.0, 0.05, 32)
    tire(os.path.join(here, "tire_quads.msh"), 0.3, 0.16, 16, 2)
    l_frame(os.path.join(here, "l_frame.msh"), 1.0, 1.0, 16)


if __name__ == "__main__":
    main()
