#!/usr/bin/env python3
"""Closed-loop control from Python: a flexible ANCF 3243 pendulum (1 m
aluminium beam on a revolute joint at x = 0, released horizontal under
gravity) held horizontal by a vertical force at its tip whose amplitude a PID
controller computes from the tip's height and velocity after every step.

The force's amplitude is a Python function the stepper calls from C++; the
controller updates the value it returns between steps. Without control the
beam swings down; with it, it sags, is pulled back and settles at the
horizontal with the tip force carrying half the beam's weight (the moment
balance m g L/2 = F L).

    PYTHONPATH=build/trilinos/python python3 examples/python/pd_controller.py \
        [--time 2.0] [--out controller.png]
"""
import argparse
import sys

import numpy as np

import tlfea

L, W, RHO, G = 1.0, 0.02, 2700.0, 9.81


class PID:
    def __init__(self, kp, kd, ki, dt):
        self.kp, self.kd, self.ki, self.dt = kp, kd, ki, dt
        self.integral = 0.0
        self.force = 0.0  # [N], what the load amplitude returns

    def update(self, error, rate):
        self.integral += error * self.dt
        self.force = self.kp * error + self.kd * rate + self.ki * self.integral


def build(controller):
    mesh = tlfea.generate_beam_ancf3243(L, W, W, 8)
    model = tlfea.Model()
    beam = model.add_body(mesh, tlfea.MaterialSpec.svk(7e9, 0.33), RHO)
    model.gravity = (0.0, 0.0, -G)
    hinge, axis = (0.0, 0.0, 0.0), (0.0, 1.0, 0.0)
    model.constraints.add_revolute(model.body_joint_frame(beam, hinge, axis, 0.005),
                                   tlfea.ground_joint_frame(hinge, axis, 0.005))
    tip = int(mesh.node_sets["end1"][0])
    # 1 N upwards times the controller's current force.
    model.add_nodal_force(beam, tip, (0.0, 0.0, 1.0), amplitude=lambda t: controller.force)
    return model, tip


def simulate(duration, control=True, dt=1e-3):
    mass = RHO * L * W * W
    inertia = mass * L**2 / 3  # about the hinge
    # Gains from the rigid-body angle (tip height z = L theta, moment F L,
    # effective mass J = I / L^2 at the tip): closed-loop poles
    # (s + w)(s^2 + 2 zeta w s + w^2) at w = 2 Hz, zeta = 0.7, well below the
    # beam's first bending mode.
    omega, zeta, J = 2 * np.pi * 2.0, 0.7, inertia / L**2
    ctl = PID(kp=J * omega**2 * (1 + 2 * zeta), kd=J * omega * (1 + 2 * zeta),
              ki=J * omega**3, dt=dt)
    model, tip = build(ctl)
    stepper = tlfea.Stepper(model, tlfea.StepperSettings(dt=dt))
    c = model.coefficient_offset(0) + tip * model.mesh(0).coefficients_per_node
    t, z, f = [], [], []
    for _ in range(int(round(duration / dt))):
        stepper.step()
        zt = stepper.positions[c, 2]
        vz = stepper.velocities[c, 2]
        if control:
            ctl.update(-zt, -vz)  # target: the tip at z = 0
        t.append(stepper.time)
        z.append(zt)
        f.append(ctl.force)
    return np.array(t), np.array(z), np.array(f), mass


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--time", type=float, default=3.0, help="simulated time [s]")
    ap.add_argument("--out", default="pd_controller.png", help="plot file (PNG)")
    args = ap.parse_args(argv)

    t, z, f, mass = simulate(args.time)
    t0, z0, _, _ = simulate(min(args.time, 0.3), control=False)
    print(f"uncontrolled: tip at z = {z0[-1]:+.4f} m after {t0[-1]:.2f} s")
    print(f"controlled:   tip at z = {z[-1]:+.5f} m after {t[-1]:.2f} s, "
          f"largest sag {z.min():+.4f} m")
    print(f"tip force {f[-1]:.4f} N; moment balance m g / 2 = {mass * G / 2:.4f} N")

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not found: no plot", file=sys.stderr)
        return 0
    fig, (a1, a2) = plt.subplots(2, 1, sharex=True, figsize=(6, 5))
    a1.plot(t, z * 1e3)
    a1.set_ylabel("tip height [mm]")
    a1.axhline(0, color="k", lw=0.5)
    a2.plot(t, f)
    a2.axhline(mass * G / 2, color="k", ls="--", lw=0.8, label="m g / 2")
    a2.set_ylabel("tip force [N]")
    a2.set_xlabel("time [s]")
    a2.legend()
    a1.set_title("Flexible pendulum held horizontal by a PID controller in Python")
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(f"plot: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
