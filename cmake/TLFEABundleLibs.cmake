# Install-time script of the pip build (python/CMakeLists.txt, SKBUILD): copies
# the shared libraries that the Python module and the tlfea program load from
# outside /usr and /lib (the OpenMP Kokkos and Kokkos Kernels of
# /opt/tlfea-deps) into TLFEA_BUNDLE_DEST, each under the name the loader
# asks for (its soname, the file the symlinks lead to) and with run path
# $ORIGIN, so that a wheel needs only the system libraries of the machine it
# is installed on.
#   TLFEA_BUNDLE_MODULE, TLFEA_BUNDLE_PROGRAM: the built module and program.
file(GET_RUNTIME_DEPENDENCIES
  LIBRARIES "${TLFEA_BUNDLE_MODULE}"
  EXECUTABLES "${TLFEA_BUNDLE_PROGRAM}"
  RESOLVED_DEPENDENCIES_VAR _deps
  UNRESOLVED_DEPENDENCIES_VAR _unresolved
  # The interpreter's own library is never linked by an extension module.
  PRE_EXCLUDE_REGEXES "^libpython"
  POST_EXCLUDE_REGEXES "^/usr/" "^/lib/" "^/lib64/")
if(_unresolved)
  message(FATAL_ERROR "TLFEA wheel: libraries not found: ${_unresolved}")
endif()
file(MAKE_DIRECTORY "${TLFEA_BUNDLE_DEST}")
foreach(_dep IN LISTS _deps)
  get_filename_component(_name "${_dep}" NAME)
  file(REAL_PATH "${_dep}" _real)
  message(STATUS "TLFEA wheel: bundling ${_real} as .libs/${_name}")
  file(COPY_FILE "${_real}" "${TLFEA_BUNDLE_DEST}/${_name}")
  # Its run path (the /opt prefix it was built for) becomes $ORIGIN: the
  # bundled libraries find each other in .libs. (CMake edits the ELF in
  # place; the new path is shorter than any absolute one.)
  file(RPATH_SET FILE "${TLFEA_BUNDLE_DEST}/${_name}" NEW_RPATH "$ORIGIN")
endforeach()
