# Models built in Python: the guide's C++ example, loads with Python
# callables, prescribed motion, joints, velocities set between steps, the
# static analysis against closed forms.
import numpy as np
import pytest

import tlfea


def readme_example(steps=100):
    # docs/python.md, "The C++ model in Python" (the C++ program of
    # docs/guide/scenes.md "A model in C++" / tests/install_consumer/model_example.cpp).
    model = tlfea.Model()
    # A T10 bar 1 x 0.1 x 0.1 m, steel-like SVK, hinged to the ground at x = 0.
    mesh = tlfea.generate_box("T10", (1.0, 0.1, 0.1), (10, 1, 1), origin=(0.0, -0.05, -0.05))
    bar = model.add_body(mesh, tlfea.MaterialSpec.svk(2e11, 0.3), 7850.0)
    model.gravity = (0.0, 0.0, -9.81)
    hinge, axis = (0.0, 0.0, 0.0), (0.0, 1.0, 0.0)
    model.constraints.add_revolute(model.body_joint_frame(bar, hinge, axis, 0.05),
                                   tlfea.ground_joint_frame(hinge, axis, 0.05))
    stepper = tlfea.Stepper(model, tlfea.StepperSettings(dt=1e-3))
    for _ in range(steps):
        report = stepper.step()  # iterations, constraint violation, timings
    q = stepper.positions  # q[k]: coefficient k (here: node k's position)
    return model, stepper, report, q


README_SCENE = """name: readme_bar
gravity: [0, 0, -9.81]
time: {dt: 1.0e-3, steps: 50}
bodies:
  - name: bar
    element: T10
    mesh: {generator: box, lengths: [1.0, 0.1, 0.1], divisions: [10, 1, 1], origin: [0, -0.05, -0.05]}
    material: {model: svk, E: 2.0e11, nu: 0.3}
    density: 7850
joints:
  - {name: hinge, type: revolute, body_i: bar, body_j: ground, point: [0, 0, 0], axis: [0, 1, 0], fiber: 0.05}
output: {enabled: false}
"""


def test_readme_model_equals_the_same_scene(assert_same_run):
    model, stepper, report, q = readme_example(steps=50)
    assert report.converged and report.constraint_violation < 1e-8
    assert q.shape == (model.num_coefficients, 3) == (189, 3)
    assert stepper.multipliers.shape == (5,)
    scene = tlfea.load_scene_text(README_SCENE)
    s = scene.stepper()
    s.run(scene.steps)
    # Built in Python or by the scene reader: the same model, the same run.
    assert_same_run(q, s.positions, 1.0)  # a 1 m bar
    # Physics: the node at the hinge stays there; the bar swings down about y.
    mesh = model.mesh(0)
    k = int(np.argmin(np.linalg.norm(mesh.nodes, axis=1)))
    assert np.linalg.norm(mesh.nodes[k]) == 0.0
    assert np.linalg.norm(q[k]) < 1e-6
    assert q[:, 1].min() > -0.05 - 1e-6 and q[:, 1].max() < 0.05 + 1e-6
    tip = q[np.argmax(mesh.nodes[:, 0])]
    assert tip[2] < -0.003  # 0.05 s of falling


def cantilever(E=7e8, L=2.0, b=0.1, elements=32, amplitude=None, force=None):
    mesh = tlfea.generate_beam_ancf3243(L, b, b, elements)
    model = tlfea.Model()
    body = model.add_body(mesh, tlfea.MaterialSpec.svk(E, 0.0), 2700.0)
    model.clamp_node_set(body, "end0")
    tip = int(mesh.node_sets["end1"][0])
    model.add_nodal_force(body, tip, force, amplitude)
    return model, tip


def test_static_elastica_with_a_python_ramp_equals_the_scene(source_dir):
    E, L, b, k = 7e8, 2.0, 0.1, 3.0
    P = k * E * b**4 / 12 / L**2  # 4375 N
    calls = []

    def ramp(t):
        calls.append(t)
        return t

    model, tip = cantilever(force=(0.0, 0.0, P), amplitude=ramp)
    stepper = tlfea.Stepper(model, tlfea.StepperSettings(analysis="static", dt=0.125))
    stepper.run(8)
    assert calls and max(calls) == pytest.approx(1.0)
    x = stepper.node_positions(0)[tip]
    # Bisshopp and Drucker (1945): -u/L = 0.25442, w/L = 0.60325 (2 %, the
    # C++ validation's tolerance at 32 elements).
    assert -(x[0] - L) / L == pytest.approx(0.25442, rel=0.02)
    assert x[2] / L == pytest.approx(0.60325, rel=0.02)
    # The scene with the same beam and a ramp function: the same equilibria
    # (to round-off: the scene's ramp computes t by another formula).
    scene = tlfea.load_scene(str(source_dir / "examples" / "static_elastica.yaml"))
    s = scene.stepper()
    s.run(scene.steps)
    np.testing.assert_allclose(stepper.positions, s.positions, rtol=0, atol=1e-10 * L)


def test_small_tip_load_gives_euler_bernoulli():
    # w = P L^3 / (3 E I); the elements guide: w / w_EB = 0.998 at 8 ANCF 3243 elements.
    E, L, b, P = 7e9, 1.0, 0.02, 0.1
    model, tip = cantilever(E=E, L=L, b=b, elements=8, force=(0.0, 0.0, -P))
    stepper = tlfea.Stepper(model, tlfea.StepperSettings(analysis="static", dt=1.0))
    stepper.step()
    w = -stepper.node_positions(0)[tip][2]
    assert w / (P * L**3 / (3 * E * b**4 / 12)) == pytest.approx(1.0, abs=0.005)


def test_callable_amplitude_equals_the_scaled_constant_load(assert_same_run):
    runs = []
    for force, amp in [((0, 0, -20.0), None), ((0, 0, -10.0), lambda t: 2.0), ((0, 0, -10.0), 2.0)]:
        model, tip = cantilever(E=7e9, L=1.0, b=0.02, elements=4, force=force, amplitude=amp)
        s = tlfea.Stepper(model, tlfea.StepperSettings(dt=1e-3))
        s.run(10)
        runs.append(s.positions)
    assert_same_run(runs[0], runs[1], 1.0)
    assert_same_run(runs[0], runs[2], 1.0)


def test_exception_in_a_callable_propagates_and_keeps_the_state():
    def amp(t):
        if t > 0.0035:
            raise ValueError(f"stop at t = {t:g}")
        return 1.0

    model, tip = cantilever(E=7e9, L=1.0, b=0.02, elements=4, force=(0, 0, -10.0), amplitude=amp)
    s = tlfea.Stepper(model, tlfea.StepperSettings(dt=1e-3))
    with pytest.raises(ValueError, match="stop at t = 0.004"):
        s.run(10)
    assert s.steps_taken == 3 and s.time == pytest.approx(0.003)
    q3 = s.positions
    with pytest.raises(ValueError):
        s.step()
    np.testing.assert_array_equal(s.positions, q3)  # the failed step changed nothing

    model, tip = cantilever(E=7e9, L=1.0, b=0.02, elements=4, force=(0, 0, -10.0),
                            amplitude=lambda t: "ten")
    with pytest.raises(tlfea.Error, match="returned 'ten', not a number"):
        tlfea.Stepper(model).step()


def test_prescribed_motion_from_python():
    # One end of a beam moved along y by a Python function; the nodes follow
    # it exactly (eliminated unknowns).
    mesh = tlfea.generate_beam_ancf3243(1.0, 0.02, 0.02, 4)
    model = tlfea.Model()
    body = model.add_body(mesh, tlfea.MaterialSpec.svk(7e9, 0.33), 2700.0)
    model.prescribe_nodes(body, [0], lambda t, X: (X[0], X[1] + 0.1 * t, X[2]))
    s = tlfea.Stepper(model, tlfea.StepperSettings(dt=1e-3))
    s.run(5)
    np.testing.assert_allclose(s.node_positions(0)[0], (0.0, 0.1 * 0.005, 0.0), rtol=0, atol=1e-15)
    bad = tlfea.Model()
    b2 = bad.add_body(mesh, tlfea.MaterialSpec.svk(7e9, 0.33), 2700.0)
    bad.prescribe_nodes(b2, [0], lambda t, X: (1.0, 2.0))
    with pytest.raises(tlfea.Error, match="not a sequence of 3 numbers"):
        tlfea.Stepper(bad).step()


def test_fixed_components_hold_and_the_rest_falls_freely():
    # Every node's z held (rollers) under gravity (2, 0, -9.81): a rigid
    # translation along x, which backward Euler gives as
    # x_n = X + g_x h^2 n (n + 1) / 2 (v_n = g_x n h, x_n = x_{n-1} + h v_n);
    # z stays at its reference value exactly.
    mesh = tlfea.generate_box("T10", (1.0, 0.1, 0.1), (2, 1, 1))
    model = tlfea.Model()
    body = model.add_body(mesh, tlfea.MaterialSpec.svk(1e7, 0.3), 1000.0)
    for node in range(mesh.num_nodes):
        model.fix_components(body, node, 0, (False, False, True))
    model.gravity = (2.0, 0.0, -9.81)
    h, n = 1e-3, 5
    s = tlfea.Stepper(model, tlfea.StepperSettings(dt=h))
    s.run(n)
    X = mesh.nodes
    x = np.asarray(s.node_positions(0))
    np.testing.assert_array_equal(x[:, 2], X[:, 2])
    np.testing.assert_allclose(x[:, 0] - X[:, 0], 2.0 * h * h * n * (n + 1) / 2, rtol=1e-9)
    np.testing.assert_allclose(x[:, 1], X[:, 1], rtol=0, atol=1e-12)
    with pytest.raises(tlfea.Error, match="out of range"):
        model2 = tlfea.Model()
        b2 = model2.add_body(mesh, tlfea.MaterialSpec.svk(1e7, 0.3), 1000.0)
        model2.fix_components(b2, mesh.num_nodes, 0, (True, False, False))


def test_joints_spherical_and_fixed_hold():
    # A closed chain under gravity: beam 0 on a spherical joint to the ground
    # at x = 0, beam 1 (lying on beam 0) welded to the ground at its middle
    # by a fixed joint, and the two hinged together at x = 0.5.
    model = tlfea.Model()
    b0 = model.add_body(tlfea.generate_beam_ancf3243(0.5, 0.02, 0.02, 2),
                        tlfea.MaterialSpec.svk(7e9, 0.33), 2700.0)
    m1 = tlfea.generate_beam_ancf3243(0.5, 0.02, 0.02, 2)
    b1 = model.add_body(m1, tlfea.MaterialSpec.svk(7e9, 0.33), 2700.0)
    model.gravity = (0, 0, -9.81)
    cs = model.constraints
    sph = cs.add_spherical(model.body_joint_frame(b0, (0, 0, 0), (0, 0, 1), 0.005),
                           tlfea.ground_joint_frame((0, 0, 0), (0, 0, 1), 0.005))
    fix = cs.add_fixed(model.body_joint_frame(b1, (0.25, 0, 0), (0, 1, 0), 0.005),
                       tlfea.ground_joint_frame((0.25, 0, 0), (0, 1, 0), 0.005))
    rev = cs.add_revolute(model.body_joint_frame(b0, (0.5, 0, 0), (0, 1, 0), 0.005),
                          model.body_joint_frame(b1, (0.5, 0, 0), (0, 1, 0), 0.005))
    assert (sph.count, fix.count, rev.count) == (3, 6, 5) and cs.num_rows == 14
    s = tlfea.Stepper(model, tlfea.StepperSettings(dt=1e-3))
    reports = s.run(20)
    assert max(r.constraint_violation for r in reports) < 1e-8
    assert s.multipliers.shape == (14,)
    # The weld point and the ground point stay; the hinge joins the beams.
    assert np.linalg.norm(s.node_positions(b1)[1] - m1.nodes[1]) < 1e-6
    assert np.linalg.norm(s.node_positions(b0)[0]) < 1e-6
    assert np.linalg.norm(s.node_positions(b0)[2] - s.node_positions(b1)[2]) < 1e-6
    assert s.node_positions(b1)[2][2] < -1e-5  # and the chain sags
    r = s.joint_reaction(sph)
    assert r.shape == (2, 3) and r[0, 2] > 0  # the ground holds beam 0 up


def test_setting_velocities_between_steps():
    # A free beam (no gravity, no constraints) moves rigidly with the velocity
    # set from Python: x = X + v t exactly for a uniform velocity.
    mesh = tlfea.generate_beam_ancf3243(1.0, 0.02, 0.02, 2)
    model = tlfea.Model()
    model.add_body(mesh, tlfea.MaterialSpec.svk(7e9, 0.33), 2700.0)
    s = tlfea.Stepper(model, tlfea.StepperSettings(dt=1e-3))
    v = np.zeros((model.num_coefficients, 3))
    v[::4] = (0.5, 0.0, 0.0)  # position coefficients only; gradients at rest
    s.velocities = v
    s.run(10)
    np.testing.assert_allclose(s.node_positions(0), mesh.nodes + (0.005, 0, 0), atol=1e-12)
    np.testing.assert_allclose(s.velocities, v, atol=1e-10)
    assert s.kinetic_energy() == pytest.approx(0.5 * 2700 * 1.0 * 0.02 * 0.02 * 0.25, rel=1e-10)
    s.set_velocities(np.zeros_like(v))
    q = s.positions
    s.run(3)
    np.testing.assert_allclose(s.positions, q, atol=1e-12)


SPRING_SCENE = README_SCENE.replace("name: readme_bar", "name: bar_on_spring").replace(
    "output: {enabled: false}",
    "springs:\n  - {body_i: bar, point_i: [1.0, 0, 0], point_j: [1.0, 0, -0.5], stiffness: 1.0e5,"
    " damping: 100}\noutput: {enabled: false}")


def test_spring_damper_from_python_equals_the_scene(assert_same_run):
    # The README bar with a spring-damper from its tip to the ground below
    # (docs/theory.md §11): built in Python it runs as the scene's springs[].
    model = tlfea.Model()
    mesh = tlfea.generate_box("T10", (1.0, 0.1, 0.1), (10, 1, 1), origin=(0.0, -0.05, -0.05))
    bar = model.add_body(mesh, tlfea.MaterialSpec.svk(2e11, 0.3), 7850.0)
    model.gravity = (0.0, 0.0, -9.81)
    hinge, axis = (0.0, 0.0, 0.0), (0.0, 1.0, 0.0)
    model.constraints.add_revolute(model.body_joint_frame(bar, hinge, axis, 0.05),
                                   tlfea.ground_joint_frame(hinge, axis, 0.05))
    assert model.add_spring_damper(model.material_point(bar, (1.0, 0.0, 0.0)),
                                   tlfea.ground_point((1.0, 0.0, -0.5)), stiffness=1e5,
                                   damping=100.0, rest_length=0.5) == 0
    with pytest.raises(Exception, match="damping"):
        model.add_spring_damper(model.material_point(bar, (1.0, 0.0, 0.0)),
                                tlfea.ground_point((1.0, 0.0, -0.5)), damping=-1.0,
                                rest_length=0.5)
    stepper = tlfea.Stepper(model, tlfea.StepperSettings(dt=1e-3))
    stepper.run(50)
    scene = tlfea.load_scene_text(SPRING_SCENE)
    s = scene.stepper()
    s.run(scene.steps)
    assert_same_run(stepper.positions, s.positions, 1.0)
    # The spring holds the tip up. As a rigid bar (I = m L^2 / 3 about the
    # hinge) the tip obeys z'' + 2 zeta w z' + w^2 (z - z_s) = 0 with
    # w = sqrt(3 k / m) = 61.8 rad/s (m = 78.5 kg) and the static sag
    # z_s = -m g / (2 k) = -3.85 mm: released at rest, at t = 0.05 s
    # (w t = 3.09, near the lowest point) z = z_s (1 - e^{-zeta w t} cos w t)
    # lies between z_s and 2 z_s = -7.7 mm (zeta: the damper's 0.03 plus
    # backward Euler's w h / 2 = 0.03). Free, the tip would have fallen
    # 3 g t^2 / 4 = 18 mm.
    k = int(np.argmax(mesh.nodes[:, 0]))  # a node of the end face x = 1
    w = stepper.positions[k][2] - mesh.nodes[k][2]
    assert -0.0078 < w < -0.00385


def test_cantilever_clamped_by_a_coupling_equals_the_clamped_one():
    # docs/theory.md §5.7: the root node coupled to the ground with
    # dofs position+rotation (its position and gradients held by rows) is
    # the clamp; both give Euler-Bernoulli's P L^3 / (3 E I) within 0.5 %
    # (test_small_tip_load_gives_euler_bernoulli).
    E, L, b, P = 7e9, 1.0, 0.02, 0.1
    w = []
    for coupled in (False, True):
        mesh = tlfea.generate_beam_ancf3243(L, b, b, 8)
        model = tlfea.Model()
        body = model.add_body(mesh, tlfea.MaterialSpec.svk(E, 0.0), 2700.0)
        if coupled:
            rows = model.add_coupling(body, list(mesh.node_sets["end0"]), -1,
                                      dofs="position+rotation")
            assert rows.count == 12  # one node: 3 position + 9 gradient rows
        else:
            model.clamp_node_set(body, "end0")
        tip = int(mesh.node_sets["end1"][0])
        model.add_nodal_force(body, tip, (0.0, 0.0, -P))
        stepper = tlfea.Stepper(model, tlfea.StepperSettings(analysis="static", dt=1.0))
        stepper.step()
        w.append(-stepper.node_positions(0)[tip][2])
    assert w[1] == pytest.approx(w[0], rel=1e-6)
    assert w[0] / (P * L**3 / (3 * E * b**4 / 12)) == pytest.approx(1.0, abs=0.005)
    model = tlfea.Model()
    body = model.add_body(tlfea.generate_beam_ancf3243(L, b, b, 2),
                          tlfea.MaterialSpec.svk(E, 0.0), 2700.0)
    with pytest.raises(ValueError, match="form"):
        model.add_coupling(body, [0], form="rigid")
