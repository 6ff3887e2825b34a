"""A progress bar for Stepper.run.

``Stepper.run(steps, output=None, callback=None, progress=False)``: with
``progress=True`` (or a string, the bar's description) a bar advances after
every step and shows the simulated time: tqdm's (``tqdm.auto``: a widget in
Jupyter, text in a terminal) when tqdm is installed, else a text bar on
stderr. The steps are the compiled ``run``'s: the bar is its callback, so the
results are the same with or without it.
"""
import sys


class _TextBar:
    """Minimal stand-in for tqdm: one line on stderr, redrawn in place."""

    def __init__(self, total, desc):
        self.total, self.desc, self.n, self.postfix = total, desc, 0, ""
        self._draw()

    def _draw(self):
        width = 30
        done = int(width * self.n / self.total) if self.total else width
        sys.stderr.write(f"\r{self.desc}: [{'#' * done}{'.' * (width - done)}] "
                         f"{self.n}/{self.total} {self.postfix}")
        sys.stderr.flush()

    def update(self, k):
        self.n += k
        self._draw()

    def set_postfix_str(self, s, refresh=True):
        self.postfix = s

    def close(self):
        sys.stderr.write("\n")
        sys.stderr.flush()


def make_bar(total, desc):
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return _TextBar(total, desc)
    return tqdm(total=total, desc=desc, unit="step")


def install_progress(stepper_type):
    compiled_run = stepper_type.run

    def run(self, steps, output=None, callback=None, progress=False):
        if not progress:
            return compiled_run(self, steps, output=output, callback=callback)
        bar = make_bar(int(steps), progress if isinstance(progress, str) else "tlfea")

        def tick(stepper, report):
            bar.set_postfix_str(f"t={stepper.time:.4g}", refresh=False)
            bar.update(1)
            if callback is not None:
                callback(stepper, report)

        try:
            return compiled_run(self, steps, output=output, callback=tick)
        finally:
            bar.close()

    run.__doc__ = (compiled_run.__doc__ or "") + (
        "\n\nprogress: False (default); True or a description string shows a progress bar "
        "(tqdm when installed, else a text bar on stderr) advanced after every step.")
    run.__name__ = "run"
    stepper_type.run = run
