# Ctrl-C during run(), memory over many steps, object counts.
import gc
import os
import signal
import threading

import numpy as np
import pytest

import tlfea


def small_beam(amplitude=None, elements=4):
    mesh = tlfea.generate_beam_ancf3243(1.0, 0.02, 0.02, elements)
    model = tlfea.Model()
    body = model.add_body(mesh, tlfea.MaterialSpec.svk(7e9, 0.33), 2700.0)
    model.clamp_node_set(body, "end0")
    model.gravity = (0.0, 0.0, -9.81)
    model.add_nodal_force(body, int(mesh.node_sets["end1"][0]), (0.0, 0.0, 1.0), amplitude)
    return model


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not hasattr(signal, "SIGINT"), reason="no SIGINT")
def test_ctrl_c_in_run_raises_after_the_current_step():
    # SIGINT arrives while the main thread is inside a step (C++, GIL
    # released): run() raises KeyboardInterrupt once that step is done, with a
    # consistent state, and the stepper goes on afterwards.
    stepper = tlfea.Stepper(small_beam(), tlfea.StepperSettings(dt=1e-4))
    timer = threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            stepper.run(10**9)
    finally:
        timer.cancel()
    n = stepper.steps_taken
    assert n >= 1
    assert stepper.time == pytest.approx(n * 1e-4, rel=1e-9)
    stepper.step()
    assert stepper.steps_taken == n + 1


def test_callback_sees_every_step_and_can_stop_the_run():
    stepper = tlfea.Stepper(small_beam(), tlfea.StepperSettings(dt=1e-3))
    seen = []

    def callback(s, report):
        assert s is stepper
        seen.append((s.steps_taken, report.converged))
        if s.steps_taken == 4:
            raise StopIteration

    with pytest.raises(StopIteration):
        stepper.run(10, callback=callback)
    assert seen == [(k, True) for k in range(1, 5)]


def test_no_leak_over_1000_steps():
    # A Python amplitude called every residual, and state copies to and from
    # NumPy every step (68 coefficients: 1.6 kB per array, so leaking the
    # arrays of every step would grow RSS by about 5 MiB).
    stepper = tlfea.Stepper(small_beam(lambda t: np.sin(50 * t), elements=16),
                            tlfea.StepperSettings(dt=1e-3))
    def chunk(n):
        for _ in range(n):
            stepper.step()
            q, v = stepper.positions, stepper.velocities
            stepper.velocities = v
        return q
    chunk(200)  # warm up (allocations that are kept, caches)
    gc.collect()
    before = rss_bytes()
    q = chunk(1000)
    gc.collect()
    grown = rss_bytes() - before
    assert np.isfinite(q).all()
    assert grown < 2**20, f"RSS grew by {grown / 2**20:.2f} MiB over 1000 steps"


def test_objects_are_unregistered_when_dropped():
    gc.collect()
    base = tlfea.live_objects()
    for _ in range(20):
        m = small_beam(lambda t: 1.0)
        s = tlfea.Stepper(m)
        s.step()
        assert tlfea.live_objects() == base + 2
        del m, s
    gc.collect()
    assert tlfea.live_objects() == base
    gc.collect()
    before = rss_bytes()
    for _ in range(30):
        s = tlfea.Stepper(small_beam(lambda t: 1.0))
        s.run(5)
        del s
    gc.collect()
    assert rss_bytes() - before < 4 * 2**20


def test_callbacks_cannot_reenter_the_stepper_or_finalize():
    holder = {}

    def amp(t):
        if "what" in holder:
            what = holder.pop("what")
            if what == "step":
                holder["stepper"].step()
            elif what == "velocities":
                s = holder["stepper"]
                s.velocities = s.velocities
            else:
                tlfea.finalize()
        return 1.0

    stepper = tlfea.Stepper(small_beam(amp), tlfea.StepperSettings(dt=1e-3))
    holder["stepper"] = stepper
    stepper.step()
    for what, message in [("step", "inside step()"), ("velocities", "inside step()"),
                          ("finalize", "a step is in progress")]:
        holder["what"] = what
        with pytest.raises(tlfea.Error, match=message):
            stepper.step()
    assert tlfea.is_initialized()
    assert stepper.steps_taken == 1
    stepper.step()  # reading the state from a callback is fine; stepping goes on
    assert stepper.steps_taken == 2
