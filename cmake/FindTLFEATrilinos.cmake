# FindTLFEATrilinos: the Trilinos packages TLFEA uses, found through
# Trilinos's own exported package (TrilinosConfig.cmake and the per-package
# <Package>Config.cmake files beside it), as two interface targets:
#
#   TLFEATrilinos::kokkos   Kokkos and Kokkos Kernels
#   TLFEATrilinos::solvers  Tpetra, Belos, Amesos2, Ifpack2, MueLu,
#                           ShyLU_NodeTacho, Teuchos, and MPI (Trilinos's
#                           headers include mpi.h; TLFEA compiles with the
#                           plain compiler, not Trilinos's mpicxx)
#
# Used by the TLFEA build (cmake/TLFEADependencies.cmake) and, installed
# beside TLFEAConfig.cmake, by every find_package(TLFEA) of a Trilinos build,
# so a consumer gets the same targets from the same Trilinos.
#
# Which Trilinos: the standard search of find_package(Trilinos CONFIG):
# -DTrilinos_DIR=<prefix>/lib/cmake/Trilinos, -DTrilinos_ROOT=<prefix> or
# CMAKE_PREFIX_PATH, then TLFEATrilinos_HINTS (the Trilinos TLFEA was built
# against, set by TLFEAConfig.cmake), then the system (Debian: /usr).
#
# Supported: Trilinos >= 13.2 built with MPI, Kokkos, Kokkos Kernels and the
# packages above.
# - Trilinos >= 14 exports modern targets: <Package>::all_libs (with their
#   include directories and usage requirements); they are linked as they are.
# - Trilinos 13.x (TriBITS before the modern targets): <Package>_LIBRARIES
#   names the package's imported library targets (no include directories on
#   them), <Package>_INCLUDE_DIRS / <Package>_TPL_INCLUDE_DIRS the headers.
# Kokkos comes from the Kokkos::kokkos target where it is usable (it carries
# the Kokkos compile options, e.g. a CUDA build's), else from the package
# variables.
#
# find_package(Trilinos) is called once, here, and each package is also found
# on its own (find_package(<Package>) in Trilinos's config directory) when
# TrilinosConfig.cmake was already read without it: a Trilinos-based code
# that did find_package(Trilinos COMPONENTS <its own>) before
# find_package(TLFEA) hits 13.x's include guard, which is respected.
#
# Results: TLFEATrilinos_FOUND, TLFEATrilinos_VERSION (= Trilinos_VERSION),
# Trilinos_DIR, Kokkos_DEVICES (from Trilinos's Kokkos), and the two targets.
#
# Installation quirks (Debian's Trilinos 13.2, libtrilinos-*-dev) are
# repaired in the section "Quirks" at the end and nowhere else; on an
# install without them the repairs find nothing to do.

# Own policy settings: a consumer's find_package(TLFEA) runs this module
# under the consumer's cmake_minimum_required.
cmake_policy(PUSH)
cmake_policy(VERSION 3.15...3.25)

set(_tlfea_tri_kokkos_packages Kokkos KokkosKernels)
set(_tlfea_tri_solver_packages Tpetra Belos Amesos2 Ifpack2 MueLu ShyLU_NodeTacho Teuchos)
set(_tlfea_tri_packages ${_tlfea_tri_kokkos_packages} ${_tlfea_tri_solver_packages})
set(_tlfea_tri_min_version 13.2)

# No version in find_package: Trilinos's ConfigVersion files accept the same
# major version only, so "13.2" would refuse 14, 15, 16. Checked below.
set(_tlfea_tri_quiet)
if(TLFEATrilinos_FIND_QUIETLY)
  set(_tlfea_tri_quiet QUIET)
endif()
find_package(Trilinos CONFIG ${_tlfea_tri_quiet}
  COMPONENTS ${_tlfea_tri_packages}
  HINTS ${TLFEATrilinos_HINTS})

set(_tlfea_tri_reason)
if(NOT Trilinos_FOUND)
  set(_tlfea_tri_reason "TrilinosConfig.cmake not found, or a package missing "
    "(set Trilinos_DIR=<prefix>/lib/cmake/Trilinos or CMAKE_PREFIX_PATH=<prefix>)")
elseif(Trilinos_VERSION VERSION_LESS _tlfea_tri_min_version)
  set(_tlfea_tri_reason "Trilinos ${Trilinos_VERSION} at ${Trilinos_DIR} is older than ${_tlfea_tri_min_version}")
else()
  # Packages the TrilinosConfig.cmake above did not read (its include guard,
  # when it was read before by the including project with other components).
  get_filename_component(_tlfea_tri_cmake_dir "${Trilinos_DIR}/.." ABSOLUTE)
  foreach(_pkg IN LISTS _tlfea_tri_packages)
    if(NOT DEFINED ${_pkg}_LIBRARIES AND NOT TARGET ${_pkg}::all_libs)
      find_package(${_pkg} CONFIG ${_tlfea_tri_quiet}
        PATHS "${_tlfea_tri_cmake_dir}" NO_DEFAULT_PATH)
      if(NOT ${_pkg}_FOUND)
        list(APPEND _tlfea_tri_reason "package ${_pkg} not in this Trilinos (${_tlfea_tri_cmake_dir}/${_pkg})")
      endif()
    endif()
  endforeach()
  # The Trilinos backends use MPI directly (Tpetra over MPI_COMM_WORLD).
  if(DEFINED Trilinos_TPL_LIST AND NOT "MPI" IN_LIST Trilinos_TPL_LIST)
    list(APPEND _tlfea_tri_reason "Trilinos ${Trilinos_VERSION} at ${Trilinos_DIR} is built "
      "without MPI (TPL_ENABLE_MPI=ON is needed), or configure TLFEA with -DTLFEA_ENABLE_TRILINOS=OFF")
  endif()
endif()

if(NOT _tlfea_tri_reason)
  find_package(MPI ${_tlfea_tri_quiet} COMPONENTS CXX)
  if(NOT MPI_CXX_FOUND)
    set(_tlfea_tri_reason "MPI (C++) not found; Trilinos's headers include mpi.h")
  endif()
endif()

# The include directories of a package's 13.x-style variables, as the
# existing directories that are not the compiler's own (as -isystem,
# /usr/include breaks libstdc++'s #include_next).
function(_tlfea_tri_include_dirs out)
  set(dirs)
  foreach(_pkg IN LISTS ARGN)
    foreach(_dir IN LISTS ${_pkg}_INCLUDE_DIRS ${_pkg}_TPL_INCLUDE_DIRS)
      get_filename_component(_dir "${_dir}" ABSOLUTE)
      if(IS_DIRECTORY "${_dir}" AND NOT _dir IN_LIST CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES)
        list(APPEND dirs "${_dir}")
      endif()
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES dirs)
  set(${out} ${dirs} PARENT_SCOPE)
endfunction()

# The link items of one package: its modern all_libs target, else what
# <Package>_LIBRARIES names (13.x: imported library targets; >= 14 sets it to
# <Package>::all_libs too).
function(_tlfea_tri_libraries out pkg)
  if(TARGET ${pkg}::all_libs)
    set(${out} ${pkg}::all_libs PARENT_SCOPE)
  else()
    set(${out} ${${pkg}_LIBRARIES} PARENT_SCOPE)
  endif()
endfunction()

# Whether an imported interface target is usable: every include directory it
# lists exists (CMake refuses an imported target naming a missing one).
function(_tlfea_tri_target_usable out target)
  set(ok TRUE)
  get_target_property(_dirs ${target} INTERFACE_INCLUDE_DIRECTORIES)
  if(_dirs)
    foreach(_dir IN LISTS _dirs)
      if(NOT _dir MATCHES "\\$<" AND NOT IS_DIRECTORY "${_dir}")
        set(ok FALSE)
      endif()
    endforeach()
  endif()
  set(${out} ${ok} PARENT_SCOPE)
endfunction()

if(NOT _tlfea_tri_reason)
  set(TLFEATrilinos_VERSION ${Trilinos_VERSION})

  # Kokkos + Kokkos Kernels.
  set(_tlfea_tri_kokkos_libs)
  set(_tlfea_tri_kokkos_dirs)
  set(_tlfea_tri_kokkos_usable FALSE)
  if(TARGET Kokkos::kokkos)
    _tlfea_tri_target_usable(_tlfea_tri_kokkos_usable Kokkos::kokkos)
  endif()
  if(_tlfea_tri_kokkos_usable)
    list(APPEND _tlfea_tri_kokkos_libs Kokkos::kokkos)
  else()
    _tlfea_tri_libraries(_libs Kokkos)
    list(APPEND _tlfea_tri_kokkos_libs ${_libs})
    _tlfea_tri_include_dirs(_tlfea_tri_kokkos_dirs Kokkos)
  endif()
  _tlfea_tri_libraries(_libs KokkosKernels)
  list(APPEND _tlfea_tri_kokkos_libs ${_libs})
  if(NOT TARGET KokkosKernels::all_libs)
    _tlfea_tri_include_dirs(_dirs KokkosKernels)
    list(APPEND _tlfea_tri_kokkos_dirs ${_dirs})
  endif()

  # The solver packages.
  set(_tlfea_tri_solver_libs)
  set(_tlfea_tri_solver_dirs)
  foreach(_pkg IN LISTS _tlfea_tri_solver_packages)
    _tlfea_tri_libraries(_libs ${_pkg})
    list(APPEND _tlfea_tri_solver_libs ${_libs})
    if(NOT TARGET ${_pkg}::all_libs)
      _tlfea_tri_include_dirs(_dirs ${_pkg})
      list(APPEND _tlfea_tri_solver_dirs ${_dirs})
    endif()
  endforeach()

  # ---- Quirks --------------------------------------------------------------
  # Debian's Trilinos 13.2 (libtrilinos-*-dev, bookworm):
  # 1. Its Kokkos::kokkos lists the include directory <prefix>/include
  #    computed four levels above lib/x86_64-linux-gnu/cmake/Kokkos, i.e.
  #    /usr/lib/include, which does not exist; the headers are in
  #    /usr/include/trilinos. Handled above: an unusable Kokkos::kokkos is
  #    replaced by the Kokkos package variables (generic check).
  # 2. Its library targets (trilinos_tacho, trilinos_amesos2, ...) list
  #    /usr/lib/x86_64-linux-gnu/lib{pt,}scotch{,err}.so in
  #    INTERFACE_LINK_LIBRARIES, which exist only with libscotch-dev /
  #    libptscotch-dev (not dependencies of libtrilinos-*-dev). The shared
  #    Trilinos libraries carry their own DT_NEEDED on the runtime
  #    libscotch-7.0.so, so the link does not need them: absolute library
  #    paths that do not exist are dropped from the imported targets the two
  #    targets reach (with a status line saying which).
  # 3. The library targets are named trilinos_<lib> (upstream: <lib>); not a
  #    problem here, since only the package variables and targets are used.
  set(_tlfea_tri_todo ${_tlfea_tri_kokkos_libs} ${_tlfea_tri_solver_libs})
  set(_tlfea_tri_seen)
  set(_tlfea_tri_dropped)
  while(_tlfea_tri_todo)
    list(POP_FRONT _tlfea_tri_todo _t)
    if(NOT TARGET "${_t}" OR _t IN_LIST _tlfea_tri_seen)
      continue()
    endif()
    list(APPEND _tlfea_tri_seen "${_t}")
    get_target_property(_imported "${_t}" IMPORTED)
    get_target_property(_aliased "${_t}" ALIASED_TARGET)
    if(_aliased)
      list(APPEND _tlfea_tri_todo "${_aliased}")
      continue()
    endif()
    get_target_property(_items "${_t}" INTERFACE_LINK_LIBRARIES)
    if(NOT _items)
      continue()
    endif()
    set(_kept)
    set(_changed FALSE)
    foreach(_item IN LISTS _items)
      if(_imported AND IS_ABSOLUTE "${_item}" AND NOT _item MATCHES "\\$<" AND NOT EXISTS "${_item}")
        list(APPEND _tlfea_tri_dropped "${_item}")
        set(_changed TRUE)
      else()
        list(APPEND _kept "${_item}")
        if(TARGET "${_item}")
          list(APPEND _tlfea_tri_todo "${_item}")
        endif()
      endif()
    endforeach()
    if(_changed)
      set_property(TARGET "${_t}" PROPERTY INTERFACE_LINK_LIBRARIES "${_kept}")
    endif()
  endwhile()
  if(_tlfea_tri_dropped AND NOT TLFEATrilinos_FIND_QUIETLY)
    list(REMOVE_DUPLICATES _tlfea_tri_dropped)
    message(STATUS "TLFEA: dropped missing library files named by Trilinos's targets: ${_tlfea_tri_dropped}")
  endif()
  # ---- end of quirks -------------------------------------------------------

  if(NOT TARGET TLFEATrilinos::kokkos)
    add_library(TLFEATrilinos::kokkos INTERFACE IMPORTED)
    target_link_libraries(TLFEATrilinos::kokkos INTERFACE ${_tlfea_tri_kokkos_libs})
    if(_tlfea_tri_kokkos_dirs)
      list(REMOVE_DUPLICATES _tlfea_tri_kokkos_dirs)
      target_include_directories(TLFEATrilinos::kokkos INTERFACE ${_tlfea_tri_kokkos_dirs})
    endif()
  endif()
  if(NOT TARGET TLFEATrilinos::solvers)
    add_library(TLFEATrilinos::solvers INTERFACE IMPORTED)
    target_link_libraries(TLFEATrilinos::solvers INTERFACE
      TLFEATrilinos::kokkos ${_tlfea_tri_solver_libs} MPI::MPI_CXX)
    if(_tlfea_tri_solver_dirs)
      list(REMOVE_DUPLICATES _tlfea_tri_solver_dirs)
      target_include_directories(TLFEATrilinos::solvers INTERFACE ${_tlfea_tri_solver_dirs})
    endif()
  endif()
endif()

include(FindPackageHandleStandardArgs)
if(_tlfea_tri_reason)
  string(REPLACE ";" "; " _tlfea_tri_reason "${_tlfea_tri_reason}")
  set(TLFEATrilinos_NOT_FOUND_MESSAGE "${_tlfea_tri_reason}")
  set(TLFEATrilinos_FOUND FALSE)
  if(TLFEATrilinos_FIND_REQUIRED)
    message(FATAL_ERROR "TLFEA: no usable Trilinos: ${_tlfea_tri_reason}. "
      "Or configure with -DTLFEA_ENABLE_TRILINOS=OFF -DKokkos_ROOT=<Kokkos prefix>.")
  elseif(NOT TLFEATrilinos_FIND_QUIETLY)
    message(STATUS "TLFEA: no usable Trilinos: ${_tlfea_tri_reason}")
  endif()
else()
  find_package_handle_standard_args(TLFEATrilinos
    REQUIRED_VARS Trilinos_DIR
    VERSION_VAR TLFEATrilinos_VERSION)
endif()
cmake_policy(POP)
