# Type stubs of the compiled binding tlfea._tlfea, made from the built module by
#   pybind11-stubgen==2.5.1 tlfea._tlfea -o OUT --ignore-all-errors
# (Stepper.run: the signature of the Python wrapper with progress=, typed by hand).
# Remake after changing python/src; tests/python/test_package.py checks that every
# public name and member of the binding is here.
"""
TLFEA: finite-deformation flexible multibody dynamics (Total Lagrangian FEA, ANCF, joints, contact) on Kokkos. See docs/python.md.
"""
from __future__ import annotations
import numpy
import typing
__all__ = ['ConstraintSet', 'ElementType', 'Error', 'JointFrame', 'LinearSolverOptions', 'MaterialModel', 'MaterialPoint', 'MaterialSpec', 'Mesh', 'Model', 'OutputWriter', 'RowRange', 'Scene', 'SceneBody', 'SceneOutput', 'SettleReport', 'SolverStats', 'StepReport', 'Stepper', 'StepperSettings', 'TimeStepper', 'finalize', 'generate_ball', 'generate_beam_ancf3243', 'generate_box', 'generate_plate_ancf3443', 'ground_joint_frame', 'ground_point', 'info', 'initialize', 'is_initialized', 'live_objects', 'load_scene', 'load_scene_text', 'nodes_where', 'read_gmsh', 'read_mesh', 'read_tetgen']
class ConstraintSet:
    """
    Model.constraints: joints and constraint primitives (C++ ConstraintSet). Each add_* returns the RowRange of its rows.
    """
    def add_cd(self, P: MaterialPoint, Q: MaterialPoint, direction: tuple[float, float, float], f: typing.Any = None) -> int:
        """
        direction . (Q - P) = f(t) (direction normalised); f None: the reference value.
        """
    def add_cylindrical(self, arg0: JointFrame, arg1: JointFrame) -> RowRange:
        ...
    def add_dist(self, P: MaterialPoint, Q: MaterialPoint, f: typing.Any = None) -> int:
        """
        |Q - P| = f(t); f None: the reference distance.
        """
    def add_dp1(self, P: MaterialPoint, Q: MaterialPoint, R: MaterialPoint, T: MaterialPoint, f: typing.Any = None) -> int:
        """
        (Q - P) . (T - R) = f(t); f None: its reference value. Returns the row.
        """
    def add_dp2(self, P: MaterialPoint, Q: MaterialPoint, R: MaterialPoint, S: MaterialPoint, f: typing.Any = None) -> int:
        ...
    def add_fixed(self, arg0: JointFrame, arg1: JointFrame) -> RowRange:
        ...
    def add_prismatic(self, arg0: JointFrame, arg1: JointFrame) -> RowRange:
        ...
    def add_revolute(self, arg0: JointFrame, arg1: JointFrame) -> RowRange:
        ...
    def add_rotation_driver(self, frame_i: JointFrame, frame_j: JointFrame, axis: tuple[float, float, float], theta: typing.Any) -> RowRange:
        """
        Frame j turned by theta(t) [rad] about axis relative to frame i (number or callable).
        """
    def add_spherical(self, arg0: JointFrame, arg1: JointFrame) -> RowRange:
        ...
    def add_universal(self, arg0: JointFrame, arg1: JointFrame) -> RowRange:
        ...
    def reference_position(self, arg0: MaterialPoint) -> tuple[float, float, float]:
        ...
    @property
    def num_rows(self) -> int:
        ...
class ElementType:
    """
    Members:
    
      T10
    
      Q27
    
      ANCF3243
    
      ANCF3443
    """
    ANCF3243: typing.ClassVar[ElementType]  # value = <ElementType.ANCF3243: 2>
    ANCF3443: typing.ClassVar[ElementType]  # value = <ElementType.ANCF3443: 3>
    Q27: typing.ClassVar[ElementType]  # value = <ElementType.Q27: 1>
    T10: typing.ClassVar[ElementType]  # value = <ElementType.T10: 0>
    __members__: typing.ClassVar[dict[str, ElementType]]  # value = {'T10': <ElementType.T10: 0>, 'Q27': <ElementType.Q27: 1>, 'ANCF3243': <ElementType.ANCF3243: 2>, 'ANCF3443': <ElementType.ANCF3443: 3>}
    def __eq__(self, other: typing.Any) -> bool:
        ...
    def __getstate__(self) -> int:
        ...
    def __hash__(self) -> int:
        ...
    def __index__(self) -> int:
        ...
    def __init__(self, value: int) -> None:
        ...
    def __int__(self) -> int:
        ...
    def __ne__(self, other: typing.Any) -> bool:
        ...
    def __repr__(self) -> str:
        ...
    def __setstate__(self, state: int) -> None:
        ...
    def __str__(self) -> str:
        ...
    @property
    def name(self) -> str:
        ...
    @property
    def value(self) -> int:
        ...
class Error(RuntimeError):
    """
    An error reported by TLFEA (bad input, a step that did not converge, a file that cannot be written); the message is the one the tlfea command prints (FILE:LINE:COLUMN: ... for scenes).
    """
    @property
    def column(self):
        """
        1-based column in `file`, or None.
        """
    @property
    def file(self):
        """
        The scene (or mesh) file the error is about, or None.
        """
    @property
    def line(self):
        """
        1-based line in `file`, or None.
        """
    @property
    def reason(self):
        """
        The message without its FILE:LINE:COLUMN: prefix.
        """
class JointFrame:
    """
    A joint frame: a point and three short material fibers (Model.body_joint_frame, tlfea.ground_joint_frame).
    """
class LinearSolverOptions:
    backend: str
    cg_budget: bool
    coarse: str
    coarse_aggregate_size: int
    ilu_level: int
    max_iterations: int
    ordering: str
    positive_definite: bool
    preconditioner: str
    symmetric: bool
    tolerance: float
    def __init__(self, **kwargs) -> None:
        ...
    def __repr__(self) -> str:
        ...
class MaterialModel:
    """
    Members:
    
      StVenantKirchhoff
    
      MooneyRivlin
    
      NeoHookean
    """
    MooneyRivlin: typing.ClassVar[MaterialModel]  # value = <MaterialModel.MooneyRivlin: 1>
    NeoHookean: typing.ClassVar[MaterialModel]  # value = <MaterialModel.NeoHookean: 2>
    StVenantKirchhoff: typing.ClassVar[MaterialModel]  # value = <MaterialModel.StVenantKirchhoff: 0>
    __members__: typing.ClassVar[dict[str, MaterialModel]]  # value = {'StVenantKirchhoff': <MaterialModel.StVenantKirchhoff: 0>, 'MooneyRivlin': <MaterialModel.MooneyRivlin: 1>, 'NeoHookean': <MaterialModel.NeoHookean: 2>}
    def __eq__(self, other: typing.Any) -> bool:
        ...
    def __getstate__(self) -> int:
        ...
    def __hash__(self) -> int:
        ...
    def __index__(self) -> int:
        ...
    def __init__(self, value: int) -> None:
        ...
    def __int__(self) -> int:
        ...
    def __ne__(self, other: typing.Any) -> bool:
        ...
    def __repr__(self) -> str:
        ...
    def __setstate__(self, state: int) -> None:
        ...
    def __str__(self) -> str:
        ...
    @property
    def name(self) -> str:
        ...
    @property
    def value(self) -> int:
        ...
class MaterialPoint:
    """
    A material point of a body (Model.material_point) or a point fixed in space (tlfea.ground_point).
    """
    @property
    def is_ground(self) -> bool:
        ...
class MaterialSpec:
    """
    A body's material: MaterialSpec.svk(E, nu), .mooney_rivlin(mu10, mu01, kappa), .neo_hookean(mu, kappa), optionally .with_kelvin_voigt(mu_v, lambda_v).
    """
    ancf3243_poisson_split: bool
    ancf3443_poisson_split: bool
    kappa: float
    kelvin_voigt: bool
    lambda_: float
    lambda_v: float
    model: MaterialModel
    mu: float
    mu01: float
    mu10: float
    mu_v: float
    @staticmethod
    def mooney_rivlin(mu10: float, mu01: float, kappa: float) -> MaterialSpec:
        ...
    @staticmethod
    def neo_hookean(mu: float, kappa: float) -> MaterialSpec:
        ...
    @staticmethod
    def svk(E: float, nu: float) -> MaterialSpec:
        ...
    def __init__(self) -> None:
        ...
    def __repr__(self) -> str:
        ...
    def with_ancf3243_poisson_split(self, on: bool) -> MaterialSpec:
        ...
    def with_ancf3443_poisson_split(self, on: bool) -> MaterialSpec:
        ...
    def with_kelvin_voigt(self, mu_v: float, lambda_v: float) -> MaterialSpec:
        ...
    @property
    def name(self) -> str:
        ...
class Mesh:
    """
    Host mesh data (reference coefficients, connectivity, named node and face sets), from a generator or a mesh file. Arrays are copies.
    """
    def __repr__(self) -> str:
        ...
    @property
    def coefficients(self) -> numpy.ndarray[numpy.float64]:
        """
        (num_coefficients, 3) reference coefficients (ANCF: r, r_u, r_v, r_w per node)
        """
    @property
    def coefficients_per_element(self) -> int:
        ...
    @property
    def coefficients_per_node(self) -> int:
        ...
    @property
    def connectivity(self) -> numpy.ndarray[numpy.int32]:
        """
        (num_elements, coefficients_per_element) coefficient ids of each element
        """
    @property
    def element_size(self) -> numpy.ndarray[numpy.float64]:
        ...
    @property
    def face_sets(self) -> dict:
        """
        name -> (k, 2) array of (element, local face)
        """
    @property
    def node_sets(self) -> dict:
        ...
    @property
    def nodes(self) -> numpy.ndarray[numpy.float64]:
        """
        (num_nodes, 3) reference node positions
        """
    @property
    def num_coefficients(self) -> int:
        ...
    @property
    def num_elements(self) -> int:
        ...
    @property
    def num_nodes(self) -> int:
        ...
    @property
    def source(self) -> str:
        ...
    @property
    def type(self) -> ElementType:
        ...
class Model:
    """
    A multibody model (tlfea::Model): bodies, Dirichlet conditions, loads and constraints. Add every body before the first joint.
    """
    gravity: tuple[float, float, float]
    def __init__(self) -> None:
        ...
    def __repr__(self) -> str:
        ...
    def add_body(self, mesh: Mesh, material: MaterialSpec, density: float) -> int:
        """
        Returns the body id.
        """
    def add_coupling(self, body_i: int, nodes: list[int], body_j: int = -1, form: str = 'kinematic', dofs: str = 'position', weights: list[float] = []) -> RowRange:
        """
        Couples nodes of body_i to body_j (-1: the ground) (docs/theory.md §5.7): form 'kinematic' (every node follows body_j; dofs 'position+rotation' also ties ANCF gradients to a rigid body_j or the ground) or 'distributing' (the weighted mean position follows; with dofs 'position+rotation' also the set's best-fit rotation, body_j rigid or the ground, the set not collinear). Returns the RowRange of its rows.
        """
    def add_nodal_force(self, body: int, node: int, force: tuple[float, float, float], amplitude: typing.Any = None) -> None:
        """
        A force [N] on a node's position coefficient, times amplitude(t) (None: 1; a number; or a callable called from C++ every evaluation).
        """
    def add_point_force(self, body: int, element: int, xi: tuple[float, float, float], force: tuple[float, float, float], amplitude: typing.Any = None) -> None:
        ...
    def add_pressure(self, body: int, face_set: str, pressure: float, amplitude: typing.Any = None) -> None:
        ...
    def add_spring_damper(self, a: MaterialPoint, b: MaterialPoint, rest_length: float, stiffness: float = 0.0, damping: float = 0.0, preload: float = 0.0, table: list[tuple[float, float]] = []) -> int:
        """
        A translational spring-damper between material points a and b (docs/theory.md §11): axial force k (L - rest_length) + preload + damping L' (tension positive), or a force-deflection table [(delta, F), ...] instead of k. Before finalize(); returns its index.
        """
    def add_traction(self, body: int, face_set: str, traction: tuple[float, float, float], amplitude: typing.Any = None) -> None:
        ...
    def body_joint_frame(self, body: int, point: tuple[float, float, float], axis: tuple[float, float, float], fiber: float, cross: tuple[float, float, float] | None = None) -> JointFrame:
        """
        A joint frame on a body at reference position `point` with the unit `axis`, fibers of length `fiber` (they must fit in the body).
        """
    def clamp_node_set(self, body: int, set: str, gradients_too: bool = True) -> None:
        ...
    def clamp_nodes(self, body: int, nodes: list[int], gradients_too: bool = True) -> None:
        ...
    def coefficient_offset(self, arg0: int) -> int:
        ...
    def finalize(self) -> None:
        ...
    def fix_components(self, body: int, node: int, k: int, axes: list[bool[3]]) -> None:
        """
        Holds the components axes = (x, y, z) of coefficient k (0 the position, 1-3 the ANCF gradients) of a node at their reference values: rollers and symmetry planes.
        """
    def material(self, arg0: int) -> MaterialSpec:
        ...
    def material_point(self, body: int, point: tuple[float, float, float]) -> MaterialPoint:
        """
        The material point of a body at reference position `point`.
        """
    def mesh(self, arg0: int) -> Mesh:
        ...
    def prescribe_coefficient(self, body: int, node: int, k: int, value: typing.Any) -> None:
        ...
    def prescribe_nodes(self, body: int, nodes: list[int], position: typing.Any, gradients_clamped: bool = True) -> None:
        """
        The nodes' positions follow position(t, X) -> (x, y, z), X the reference position; called from C++ every step.
        """
    def reference(self) -> numpy.ndarray[numpy.float64]:
        """
        (num_coefficients, 3) reference coefficients of all bodies (freezes the list of bodies).
        """
    def set_gravity(self, arg0: tuple[float, float, float]) -> None:
        ...
    @property
    def constraints(self) -> ConstraintSet:
        """
        The model's ConstraintSet (created on first use; freezes the list of bodies).
        """
    @property
    def finalized(self) -> bool:
        ...
    @property
    def num_bodies(self) -> int:
        ...
    @property
    def num_coefficients(self) -> int:
        ...
class OutputWriter:
    """
    HDF5 + XDMF + history.csv output of a run (tlfea::io::OutputWriter). Writes step 0 when made; record(report) after every step; finish() at the end.
    """
    def __enter__(self) -> typing.Any:
        ...
    def __exit__(self, arg0: typing.Any, arg1: typing.Any, arg2: typing.Any) -> bool:
        ...
    def __init__(self, stepper: Stepper, directory: str | None = None, every: int | None = None, samples: int | None = None, fields: typing.Any = None, resume: bool = False) -> None:
        """
        Defaults from the scene's output section when the stepper came from a scene (directory, every, fields, samples; its joints and contact are written too).
        """
    def add_joint(self, arg0: str, arg1: RowRange) -> None:
        ...
    def finish(self) -> None:
        """
        Writes the last step's fields if due and the histories; closes the writer.
        """
    def record(self, report: StepReport) -> None:
        ...
    def write_fields(self) -> None:
        ...
    @property
    def csv_path(self) -> str:
        ...
    @property
    def directory(self) -> str:
        ...
    @property
    def finished(self) -> bool:
        ...
    @property
    def hdf5_path(self) -> str:
        ...
    @property
    def xdmf_path(self) -> str:
        ...
class RowRange:
    """
    Constraint rows [first, first + count).
    """
    def __repr__(self) -> str:
        ...
    @property
    def count(self) -> int:
        ...
    @property
    def first(self) -> int:
        ...
class Scene:
    """
    A loaded scene file: its model, stepper settings, step count, output settings, joints and contact. Scene.stepper() starts a run.
    """
    steps: int
    def __repr__(self) -> str:
        ...
    def stepper(self, settings: StepperSettings | None = None, settle: bool = True) -> ...:
        """
        A Stepper on the scene's model with the scene's settings (or `settings`), settled when the scene has time.settle (a RuntimeWarning when the bodies did not come to rest; settle=False: call Stepper.settle yourself), and with its initial velocities, as `tlfea run` makes it. A scene's contact history is shared by its steppers: make one stepper per scene (a failed settle leaves it changed: load the scene again).
        """
    @property
    def bodies(self) -> list[SceneBody]:
        ...
    @property
    def constraint_rows(self) -> int:
        ...
    @property
    def description(self) -> str:
        ...
    @property
    def end_time(self) -> float:
        ...
    @property
    def file(self) -> str:
        ...
    @property
    def has_contact(self) -> bool:
        ...
    @property
    def joints(self) -> list:
        """
        [(name, RowRange)]
        """
    @property
    def model(self) -> Model:
        ...
    @property
    def name(self) -> str:
        ...
    @property
    def output(self) -> SceneOutput:
        ...
    @property
    def settings(self) -> StepperSettings:
        """
        The scene's StepperSettings (changes apply to steppers made afterwards).
        """
    @property
    def settle_duration(self) -> float:
        """
        time.settle's duration [s] (0: no settle)
        """
    @property
    def unknowns(self) -> int:
        ...
class SceneBody:
    def __repr__(self) -> str:
        ...
    @property
    def coefficients(self) -> int:
        ...
    @property
    def element(self) -> ElementType:
        ...
    @property
    def elements(self) -> int:
        ...
    @property
    def mass(self) -> float:
        ...
    @property
    def material(self) -> str:
        ...
    @property
    def name(self) -> str:
        ...
class SceneOutput:
    """
    The scene's output section (attributes may be changed).
    """
    contact: bool
    directory: str
    displacement: bool
    enabled: bool
    every: int
    reactions: bool
    samples: int
    stress: bool
    velocity: bool
    @property
    def step_bytes(self) -> float:
        ...
class SettleReport:
    """
    What Stepper.settle() did (tlfea::SettleReport).
    """
    def __repr__(self) -> str:
        ...
    @property
    def at_rest(self) -> bool:
        ...
    @property
    def kinetic_energy_final(self) -> float:
        ...
    @property
    def kinetic_energy_peak(self) -> float:
        ...
    @property
    def newton_iterations(self) -> int:
        ...
    @property
    def steps(self) -> int:
        ...
    @property
    def velocity_resets(self) -> int:
        ...
class SolverStats:
    @property
    def analyses(self) -> int:
        ...
    @property
    def analyze_seconds(self) -> float:
        ...
    @property
    def backend(self) -> str:
        ...
    @property
    def factorizations(self) -> int:
        ...
    @property
    def factorize_seconds(self) -> float:
        ...
    @property
    def last_iterations(self) -> int:
        ...
    @property
    def last_residual(self) -> float:
        ...
    @property
    def solve_seconds(self) -> float:
        ...
    @property
    def solves(self) -> int:
        ...
    @property
    def total_iterations(self) -> int:
        ...
class StepReport:
    """
    What one step() did (tlfea::StepReport).
    """
    def __repr__(self) -> str:
        ...
    @property
    def assembly_s(self) -> float:
        ...
    @property
    def constraint_violation(self) -> float:
        ...
    @property
    def converged(self) -> bool:
        ...
    @property
    def factorization_s(self) -> float:
        ...
    @property
    def factorizations(self) -> int:
        ...
    @property
    def force_scale(self) -> float:
        ...
    @property
    def krylov_iterations(self) -> int:
        ...
    @property
    def newton_iterations(self) -> int:
        ...
    @property
    def outer_iterations(self) -> int:
        ...
    @property
    def residual_history(self) -> list[float]:
        ...
    @property
    def retries(self) -> int:
        ...
    @property
    def solve_s(self) -> float:
        ...
    @property
    def step_force_s(self) -> float:
        ...
class Stepper:
    """
    The backward-Euler / static stepper (tlfea::TimeStepper) on a model. State arrays are NumPy copies.
    """
    def __init__(self, model: Model, settings: StepperSettings | None = None) -> None:
        ...
    def __repr__(self) -> str:
        ...
    def joint_reaction(self, rows: RowRange) -> numpy.ndarray[numpy.float64]:
        """
        (num_bodies, 3): the force of the constraint rows `rows` (a joint) on each body.
        """
    def kinetic_energy(self) -> float:
        """
        1/2 v^T M v with the consistent mass matrix.
        """
    def load_checkpoint(self, path: str) -> None:
        """
        Restores a checkpoint into this stepper (same model layout; continues bit-identically in Serial).
        """
    def node_positions(self, body: int) -> numpy.ndarray[numpy.float64]:
        """
        (num_nodes, 3) current node positions of one body.
        """
    def run(self, steps: int, output: OutputWriter | None = None, callback: typing.Callable[[Stepper, StepReport], typing.Any] | None = None, progress: bool | str = False) -> list[StepReport]:
        """
        run(self: tlfea._tlfea.Stepper, steps: int, output: object = None, callback: object = None) -> list
        
        steps calls of step(); after each, output.record(report) when an OutputWriter is given and callback(stepper, report) when given. Returns the reports. Ctrl-C raises KeyboardInterrupt after the current step.
        
        
        progress: False (default); True or a description string shows a progress bar (tqdm when installed, else a text bar on stderr) advanced after every step.
        """
    def save_checkpoint(self, path: str) -> None:
        """
        Writes an HDF5 checkpoint (as tlfea run's checkpoint.h5).
        """
    def set_velocities(self, v: numpy.ndarray[numpy.float64]) -> None:
        ...
    def settle(self, duration: float, ramp: float | None = None, kinetic_damping: bool = True, rest_tolerance: float = 0.001) -> SettleReport:
        """
        Settles the model before t = 0 (tlfea::TimeStepper::settle, docs/theory.md §6.11): steps of settings.dt from t = -duration to 0 with the loads of t = 0 eased in over `ramp` (None: duration / 2), drivers, prescribed motions and obstacles held at t = 0, and the velocities zeroed at every peak of the kinetic energy (kinetic_damping). Ends at t = 0, step 0, with the velocities set before it. Once, before the first step of a dynamic analysis. Returns a SettleReport; .at_rest is False when a body still slides or falls.
        """
    def step(self) -> StepReport:
        """
        Advances by settings.dt (halving on failure); returns the StepReport. Raises tlfea.Error when the retries are exhausted (state: the last converged step).
        """
    @property
    def is_static(self) -> bool:
        ...
    @property
    def linear_stats(self) -> SolverStats:
        ...
    @property
    def model(self) -> Model:
        ...
    @property
    def multipliers(self) -> numpy.ndarray[numpy.float64]:
        """
        Copy of the Lagrange multipliers, one per constraint row.
        """
    @property
    def penalty(self) -> float:
        ...
    @property
    def positions(self) -> numpy.ndarray[numpy.float64]:
        """
        (num_coefficients, 3) copy of the coefficients q (ANCF: r, r_u, r_v, r_w per node).
        """
    @property
    def settings(self) -> StepperSettings:
        """
        A copy of the settings in use.
        """
    @property
    def steps_taken(self) -> int:
        ...
    @property
    def time(self) -> float:
        ...
    @property
    def velocities(self) -> numpy.ndarray[numpy.float64]:
        """
        (num_coefficients, 3) copy of the velocities; assigning sets them for the next step (clamped coefficients stay at zero).
        """
    @velocities.setter
    def velocities(self, arg1: numpy.ndarray[numpy.float64]) -> None:
        ...
class StepperSettings:
    """
    tlfea::StepperSettings: every field an attribute (docs/guide/solvers.md); StepperSettings(dt=1e-4, analysis='static', ...) sets them by keyword.
    """
    adamw_beta1: float
    adamw_beta2: float
    adamw_check_every: int
    adamw_epsilon: float
    adamw_learning_rate: float
    adamw_lr_decay: float
    adamw_max_iterations: int
    adamw_weight_decay: float
    analysis: str
    constraint_tolerance: float
    dp1_curvature: bool
    dt: float
    inner_solver: str
    integrator: str
    krylov_factor_age: int
    krylov_iterations: int
    line_search: bool
    linear: LinearSolverOptions
    max_newton: int
    max_outer: int
    max_retries: int
    partition: str
    penalty: float
    penalty_scale: float
    position_tol: float
    residual_abs_tol: float
    residual_force_tol: float
    residual_rel_tol: float
    reuse_jacobian: bool
    rho_inf: float
    reuse_ratio: float
    step_tol: float
    timing_fences: bool
    def __init__(self, **kwargs) -> None:
        ...
    def __repr__(self) -> str:
        ...
    def copy(self) -> StepperSettings:
        ...
def finalize() -> None:
    """
    Releases every TLFEA object still alive, then finalizes Kokkos (and MPI if this module started it). Runs by itself at interpreter exit; afterwards TLFEA cannot be used in this process.
    """
def generate_ball(type: typing.Any, radius: float, divisions: int, center: list[float[3]] = [0.0, 0.0, 0.0]) -> Mesh:
    ...
def generate_beam_ancf3243(length: float, width: float, height: float, elements: int) -> Mesh:
    """
    Straight ANCF 3243 beam along +x from the origin; node sets end0, end1, all.
    """
def generate_box(type: typing.Any, lengths: list[float[3]], divisions: list[int[3]], origin: list[float[3]] = [0.0, 0.0, 0.0]) -> Mesh:
    """
    Box [origin, origin + lengths] of T10 or Q27 elements, divisions cells per direction; node and face sets xmin, xmax, ymin, ymax, zmin, zmax; node set all.
    """
def generate_plate_ancf3443(lx: float, ly: float, thickness: float, divisions: list[int[2]]) -> Mesh:
    ...
def ground_joint_frame(point: tuple[float, float, float], axis: tuple[float, float, float], fiber: float, cross: tuple[float, float, float] | None = None) -> JointFrame:
    """
    A joint frame fixed in space at `point` with the unit `axis` (cross: the first cross direction, default automatic), fibers of length `fiber`.
    """
def ground_point(position: tuple[float, float, float]) -> MaterialPoint:
    ...
def info() -> dict:
    """
    What `tlfea info` prints, as a dict: version, kokkos_backend, concurrency, mpi, linear_solvers, cpu_target, cpu_kernels, blas, output.
    """
def initialize(threads: int | None = None) -> None:
    """
    Starts Kokkos (and MPI in a build with the Trilinos solvers) with `threads` host threads (OpenMP build; default: OMP_NUM_THREADS or all cores). Optional: the first model, scene or info() call starts it with the defaults. Once per process.
    """
def is_initialized() -> bool:
    ...
def live_objects() -> int:
    """
    Number of live TLFEA objects holding Kokkos memory (models, scenes, steppers, writers).
    """
def load_scene(path: str, overrides: list[str] = []) -> Scene:
    """
    Loads a scene file; overrides are 'key.path=value' as `tlfea run --set`. Bad input raises tlfea.Error('FILE:LINE:COLUMN: ...').
    """
def load_scene_text(text: str, file: str = '<string>', base_dir: str = '.', overrides: list[str] = []) -> Scene:
    """
    A scene from YAML text; `file` names it in messages, relative mesh paths are taken from base_dir.
    """
def nodes_where(mesh: Mesh, axis: int, value: float, tol: float = 1e-09) -> numpy.ndarray[numpy.int32]:
    """
    Nodes whose position coordinate `axis` is within tol of value.
    """
def read_gmsh(path: str) -> Mesh:
    ...
def read_mesh(path: str) -> Mesh:
    """
    Gmsh 4.1 (.msh) or TetGen (.node/.ele) mesh file.
    """
def read_tetgen(path: str) -> Mesh:
    ...
__version__: str = '0.1.0'
TimeStepper = Stepper
