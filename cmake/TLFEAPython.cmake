# The Python module `tlfea` (python/, pybind11; docs/python.md).
#
# TLFEA_ENABLE_PYTHON: unless given on the command line, ON when a Python 3
# interpreter with its headers and NumPy, and pybind11's CMake package, are
# found (Debian: python3-dev, python3-numpy, pybind11-dev), else OFF with a
# status message. The automatic choice is OFF in a CUDA build (nvcc_wrapper:
# the bindings are host code, and an nvcc-compiled pybind11 module is not
# checked here) and in the clang sanitizer / fuzz tree (TLFEA_ENABLE_FUZZ: an
# ASan-instrumented module needs the ASan runtime preloaded into python3).
# An automatic choice is made again at every configure (a later install of
# pybind11 turns it ON); a value given with -D is kept, and ON then requires
# the dependencies.
#
# The interpreter: Python3_EXECUTABLE when given, else the first `python3` on
# PATH that imports NumPy (a pyenv or virtualenv python3 without NumPy ahead
# of /usr/bin/python3 on PATH is skipped rather than turning the module off).
#
# The pip build (scikit-build-core, pyproject.toml; SKBUILD is set) builds the
# module for the interpreter pip runs (Python3_EXECUTABLE, given by
# scikit-build-core), and NumPy is not needed to build it (the bindings use
# pybind11's NumPy API, which needs no NumPy headers; NumPy is a run-time
# requirement of the package).

set(_tlfea_py_auto TRUE)
if(DEFINED TLFEA_ENABLE_PYTHON AND NOT "${TLFEA_ENABLE_PYTHON}" STREQUAL "${_TLFEA_PYTHON_AUTO_VALUE}")
  set(_tlfea_py_auto FALSE)  # set by the user
endif()

set(_tlfea_py_reason "")
if(_tlfea_py_auto)
  if(TLFEA_ENABLE_FUZZ)
    set(_tlfea_py_reason "the sanitizer / fuzz configuration (TLFEA_ENABLE_FUZZ)")
  elseif(Kokkos_DEVICES MATCHES "CUDA" OR Kokkos_ENABLE_CUDA OR CMAKE_CXX_COMPILER MATCHES "nvcc")
    set(_tlfea_py_reason "a CUDA build (-DTLFEA_ENABLE_PYTHON=ON to try)")
  endif()
endif()

set(_tlfea_py_found FALSE)
if((_tlfea_py_auto AND _tlfea_py_reason STREQUAL "") OR (NOT _tlfea_py_auto AND TLFEA_ENABLE_PYTHON))
  set(_tlfea_py_components Interpreter Development.Module NumPy)
  if(SKBUILD)
    set(_tlfea_py_components Interpreter Development.Module)
  endif()
  if(NOT Python3_EXECUTABLE AND NOT SKBUILD)
    # PATH order; the first python3 that imports numpy.
    if(CMAKE_HOST_WIN32)
      set(_tlfea_path "$ENV{PATH}")
    else()
      string(REPLACE ":" ";" _tlfea_path "$ENV{PATH}")
    endif()
    foreach(_dir IN LISTS _tlfea_path)
      if(_dir AND EXISTS "${_dir}/python3" AND NOT IS_DIRECTORY "${_dir}/python3")
        execute_process(COMMAND "${_dir}/python3" -c "import numpy"
          RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_QUIET TIMEOUT 60)
        if(_rc EQUAL 0)
          set(Python3_EXECUTABLE "${_dir}/python3")
          break()
        endif()
      endif()
    endforeach()
  endif()
  find_package(Python3 3.7 QUIET COMPONENTS ${_tlfea_py_components})
  if(Python3_FOUND)
    find_package(pybind11 2.6 CONFIG QUIET)
    if(pybind11_FOUND)
      set(_tlfea_py_found TRUE)
    else()
      set(_tlfea_py_reason "pybind11's CMake package not found (Debian: pybind11-dev; or -Dpybind11_DIR)")
    endif()
  else()
    set(_tlfea_py_reason "no Python 3 with headers and NumPy found (Debian: python3-dev python3-numpy; or -DPython3_EXECUTABLE)")
  endif()
endif()

if(_tlfea_py_auto)
  set(TLFEA_ENABLE_PYTHON ${_tlfea_py_found} CACHE BOOL "Build the Python module tlfea (pybind11)" FORCE)
  set(_TLFEA_PYTHON_AUTO_VALUE ${_tlfea_py_found} CACHE INTERNAL "TLFEA_ENABLE_PYTHON as chosen automatically")
elseif(TLFEA_ENABLE_PYTHON AND NOT _tlfea_py_found)
  message(FATAL_ERROR "TLFEA_ENABLE_PYTHON=ON: ${_tlfea_py_reason}")
endif()

if(TLFEA_ENABLE_PYTHON)
  if(SKBUILD)
    set(_tlfea_numpy "NumPy at run time")
  else()
    set(_tlfea_numpy "NumPy ${Python3_NumPy_VERSION}")
  endif()
  message(STATUS "TLFEA: Python module ON (${Python3_EXECUTABLE}, Python ${Python3_VERSION}, "
    "${_tlfea_numpy}, pybind11 ${pybind11_VERSION})")
  # Where `cmake --install` puts the module, relative to the prefix (a
  # site-packages directory: PYTHONPATH=<prefix>/<this>).
  set(TLFEA_PYTHON_INSTALL_DIR
    "${CMAKE_INSTALL_LIBDIR}/python${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}/site-packages"
    CACHE STRING "Install directory of the Python module, relative to CMAKE_INSTALL_PREFIX")
elseif(_tlfea_py_reason)
  message(STATUS "TLFEA: Python module OFF: ${_tlfea_py_reason}")
else()
  message(STATUS "TLFEA: Python module OFF (TLFEA_ENABLE_PYTHON)")
endif()
