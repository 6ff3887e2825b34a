# Finds Kokkos (+ Kokkos Kernels) and exposes it as the interface target
# tlfea_kokkos (exported as TLFEA::kokkos).
#
# Trilinos build: Kokkos, Kokkos Kernels and the solver packages from one
# Trilinos (>= 13.2), found once through its exported package by
# cmake/FindTLFEATrilinos.cmake (the only place that knows about particular
# Trilinos installs, e.g. Debian's): TLFEATrilinos::kokkos here,
# TLFEATrilinos::solvers in linalg/ and integrators/. Point at a Trilinos with
# -DTrilinos_DIR=<prefix>/lib/cmake/Trilinos or CMAKE_PREFIX_PATH=<prefix>.
#
# Otherwise: a standalone Kokkos (-DKokkos_ROOT=<prefix>) and the Kokkos
# Kernels installed with it (find_package(KokkosKernels), from the same prefix
# unless KokkosKernels_ROOT says otherwise).
add_library(tlfea_kokkos INTERFACE)
if(TLFEA_ENABLE_TRILINOS)
  find_package(TLFEATrilinos REQUIRED)
  message(STATUS "TLFEA: Kokkos and solvers from Trilinos ${Trilinos_VERSION} (${Trilinos_DIR}), "
    "Kokkos devices ${Kokkos_DEVICES}")
  target_link_libraries(tlfea_kokkos INTERFACE TLFEATrilinos::kokkos)
  # The installed TLFEAConfig.cmake looks here first (after the consumer's
  # own Trilinos_DIR / CMAKE_PREFIX_PATH).
  set(TLFEA_TRILINOS_DIR "${Trilinos_DIR}")
  set(TLFEA_KOKKOS_PROVIDER "Trilinos")
else()
  find_package(Kokkos REQUIRED)
  # Kokkos Kernels from the same prefix, not Debian's Trilinos copy.
  if(NOT KokkosKernels_ROOT AND NOT DEFINED ENV{KokkosKernels_ROOT})
    get_filename_component(_kk_prefix "${Kokkos_DIR}/../../.." ABSOLUTE)
    set(KokkosKernels_ROOT "${_kk_prefix}")
  endif()
  find_package(KokkosKernels REQUIRED)
  set(TLFEA_KOKKOS_ROOT "${KokkosKernels_ROOT}")
  message(STATUS "TLFEA: Kokkos ${Kokkos_VERSION} from ${Kokkos_DIR}, devices ${Kokkos_DEVICES}")
  target_link_libraries(tlfea_kokkos INTERFACE Kokkos::kokkoskernels Kokkos::kokkos)
  set(TLFEA_KOKKOS_PROVIDER "Kokkos")
endif()
# Exported as TLFEA::kokkos (the name the build uses), not TLFEA::tlfea_kokkos.
set_target_properties(tlfea_kokkos PROPERTIES EXPORT_NAME kokkos)
install(TARGETS tlfea_kokkos EXPORT TLFEATargets)
add_library(TLFEA::kokkos ALIAS tlfea_kokkos)

find_package(Eigen3 3.3 REQUIRED NO_MODULE)

# Builds one TLFEA layer: tlfea_add_layer(NAME SOURCES ... DEPENDS ...)
function(tlfea_add_layer name)
  cmake_parse_arguments(L "" "" "SOURCES;DEPENDS;PRIVATE_DEPENDS" ${ARGN})
  if(L_SOURCES)
    add_library(tlfea_${name} ${L_SOURCES})
    target_include_directories(tlfea_${name} PUBLIC
      $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
      $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
    target_link_libraries(tlfea_${name} PUBLIC ${L_DEPENDS} PRIVATE ${L_PRIVATE_DEPENDS})
    set_target_properties(tlfea_${name} PROPERTIES EXPORT_NAME ${name}
      POSITION_INDEPENDENT_CODE ON)
  else()
    add_library(tlfea_${name} INTERFACE)
    target_include_directories(tlfea_${name} INTERFACE
      $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
      $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
    target_link_libraries(tlfea_${name} INTERFACE ${L_DEPENDS})
    set_target_properties(tlfea_${name} PROPERTIES EXPORT_NAME ${name})
  endif()
  add_library(TLFEA::${name} ALIAS tlfea_${name})
  install(TARGETS tlfea_${name} EXPORT TLFEATargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endfunction()
