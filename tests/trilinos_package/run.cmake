# ctest driver (test trilinos_package): checks cmake/FindTLFEATrilinos.cmake
# against the two shapes of Trilinos's exported package, without building
# Trilinos:
#   1. a Trilinos >= 14 style package (modern <Package>::all_libs targets, no
#      include guard, no per-library targets), written by make_modern/ from
#      the Trilinos 13.x here: a small program is configured, built and run
#      on TLFEATrilinos::solvers, and TLFEA itself configures against it;
#   2. the Trilinos 13.x here, found after the consumer already did
#      find_package(Trilinos COMPONENTS Teuchos) (as a Trilinos-based code
#      that embeds TLFEA does): its include guard must be respected.
# Arguments: SOURCE_DIR (TLFEA), WORK_DIR, REAL_TRILINOS_DIR, REAL_VERSION,
# GENERATOR, CXX.
set(here "${CMAKE_CURRENT_LIST_DIR}")
file(REMOVE_RECURSE "${WORK_DIR}")

function(step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}")
  endif()
  message(STATUS "${what}: ok")
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

set(modern_dir "${WORK_DIR}/modern/lib/cmake/Trilinos")
step("write a Trilinos >= 14 style package"
  ${CMAKE_COMMAND} -S "${here}/make_modern" -B "${WORK_DIR}/make_modern"
  "-DREAL_TRILINOS_DIR=${REAL_TRILINOS_DIR}" "-DOUT=${WORK_DIR}/modern")

set(common -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX}" -DCMAKE_BUILD_TYPE=Release
  "-DTLFEA_CMAKE_DIR=${SOURCE_DIR}/cmake")
foreach(case modern early_components)
  if(case STREQUAL "modern")
    set(args "-DTrilinos_DIR=${modern_dir}" -DEXPECT_VERSION=16.0.0)
  else()
    set(args "-DTrilinos_DIR=${REAL_TRILINOS_DIR}" "-DEXPECT_VERSION=${REAL_VERSION}"
      -DEARLY_COMPONENTS=Teuchos)
  endif()
  step("${case}: configure the consumer" ${CMAKE_COMMAND} -S "${here}/consumer"
    -B "${WORK_DIR}/${case}_consumer" ${common} ${args})
  step("${case}: build the consumer" ${CMAKE_COMMAND} --build "${WORK_DIR}/${case}_consumer")
  step("${case}: run the consumer" "${WORK_DIR}/${case}_consumer/trilinos_consumer")
  message(STATUS "${step_output}")
endforeach()

# TLFEA's own configuration (no tests or benchmarks: configure only) against
# the modern package: nothing in its CMake may depend on 13.x variables or
# on particular library target names.
step("configure TLFEA against the Trilinos >= 14 style package"
  ${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${WORK_DIR}/tlfea" -G "${GENERATOR}"
  "-DCMAKE_CXX_COMPILER=${CXX}" -DCMAKE_BUILD_TYPE=Release "-DTrilinos_DIR=${modern_dir}"
  -DTLFEA_ENABLE_TESTS=OFF -DTLFEA_ENABLE_BENCHMARKS=OFF)
if(NOT step_output MATCHES "from Trilinos 16\\.0\\.0")
  message(FATAL_ERROR "TLFEA did not take the Trilinos >= 14 style package:\n${step_output}")
endif()
