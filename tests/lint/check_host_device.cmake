# Fails when library code copies between memory spaces other than through
# core/include/tlfea/core/host_device.hpp: a Kokkos::deep_copy or a
# Kokkos::create_mirror* anywhere else in the library's sources. Those helpers
# check at compile time that a host array has the device view's own type and
# layout, and gather strided views before copying; a bare deep_copy between a
# LayoutRight host array and a LayoutLeft (CUDA) device view, or of a strided
# subview, compiles and passes on the CPU and throws on a GPU.
# Also fails on a Kokkos::fence or an execution space's .fence() outside
# core/src/host_sync.cpp: library code fences through tlfea::fence
# (tlfea/core/host_sync.hpp), which the host-synchronisation count sees
# (Kokkos 3.4 reports no fence to Kokkos Tools, so a bare one would go
# uncounted).
#
# Run: cmake -DSOURCE_DIR=<repository root> -P check_host_device.cmake
cmake_minimum_required(VERSION 3.16)
if(NOT SOURCE_DIR)
  message(FATAL_ERROR "check_host_device.cmake: SOURCE_DIR not set")
endif()
set(dirs core elements materials constraints contact model linalg integrators io scene simulation python apps)
# The one file allowed to copy, and the one allowed to fence.
set(allowed "core/include/tlfea/core/host_device.hpp")
set(allowed_fence "core/src/host_sync.cpp")
set(found 0)
set(found_fence 0)
foreach(d IN LISTS dirs)
  file(GLOB_RECURSE files RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/${d}/*.hpp"
       "${SOURCE_DIR}/${d}/*.cpp" "${SOURCE_DIR}/${d}/*.h")
  foreach(f IN LISTS files)
    set(check_copy TRUE)
    if(f IN_LIST allowed)
      set(check_copy FALSE)
    endif()
    # One list element per line: file(STRINGS) would split lines at ';' and
    # join lines across an unmatched '[' (CMake list syntax), hiding copies.
    file(READ "${SOURCE_DIR}/${f}" text)
    string(REPLACE ";" "," text "${text}")
    string(REPLACE "[" "(" text "${text}")
    string(REPLACE "]" ")" text "${text}")
    string(REPLACE "\n" ";" lines "${text}")
    set(n 0)
    foreach(line IN LISTS lines)
      math(EXPR n "${n} + 1")
      if(line MATCHES "^[ \t]*//")
        continue()
      endif()
      if(check_copy AND (line MATCHES "Kokkos::deep_copy[ \t]*\\(" OR line MATCHES "create_mirror"))
        message("${f}:${n}: copy outside tlfea/core/host_device.hpp: ${line}")
        math(EXPR found "${found} + 1")
      endif()
      if(NOT f IN_LIST allowed_fence AND (line MATCHES "Kokkos::fence[ \t]*\\(" OR
                                          line MATCHES "\\.fence[ \t]*\\("))
        message("${f}:${n}: fence outside tlfea::fence (tlfea/core/host_sync.hpp): ${line}")
        math(EXPR found_fence "${found_fence} + 1")
      endif()
    endforeach()
  endforeach()
endforeach()
if(found GREATER 0)
  message(FATAL_ERROR
          "${found} host/device copies outside tlfea/core/host_device.hpp: use to_host, "
          "host_mirror + copy_to_device, copy_to_host, device_copy or fill")
endif()
if(found_fence GREATER 0)
  message(FATAL_ERROR
          "${found_fence} fences outside tlfea::fence: use tlfea::fence(\"why\") "
          "(tlfea/core/host_sync.hpp), which the host-synchronisation count sees")
endif()
message(STATUS "check_host_device: no copy outside tlfea/core/host_device.hpp, no fence "
               "outside tlfea::fence")
