# ctest driver: install the build tree to a scratch prefix, then configure,
# build and run the consumer project against it with find_package(TLFEA).
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix
  RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "install failed: ${rc}")
endif()
set(extra)
if(KOKKOS_ROOT_ARG)
  list(APPEND extra -DKokkos_ROOT=${KOKKOS_ROOT_ARG})
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build
  -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Release ${extra}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the consumer failed: ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/build RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the consumer failed: ${rc}")
endif()
foreach(prog consumer model_example sim_example)
  execute_process(COMMAND ${WORK_DIR}/build/${prog} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${prog} failed: ${rc}")
  endif()
endforeach()
# The Python module from the install tree (when the build has one): it
# imports from <prefix>/<TLFEA_PYTHON_INSTALL_DIR> and runs a step.
if(PYTHON_EXE)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${WORK_DIR}/prefix/${PYTHON_DIR}
    PYTHONDONTWRITEBYTECODE=1 ${PYTHON_EXE} -c
    "import tlfea, os; assert os.path.realpath(os.path.dirname(tlfea.__file__)) == os.path.realpath('${WORK_DIR}/prefix/${PYTHON_DIR}/tlfea'), tlfea.__file__; import subprocess, sys; assert subprocess.run([sys.executable, '-m', 'tlfea', 'info']).returncode == 0; m = tlfea.Model(); b = m.add_body(tlfea.generate_beam_ancf3243(1, 0.02, 0.02, 2), tlfea.MaterialSpec.svk(1e9, 0.3), 1e3); m.clamp_node_set(b, 'end0'); m.gravity = (0, 0, -9.81); s = tlfea.Stepper(m); assert s.step().converged; print('installed python module ok')"
    RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the installed Python module failed: ${rc}")
  endif()
endif()
