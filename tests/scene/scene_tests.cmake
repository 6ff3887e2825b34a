# Scene suite (included from tests/CMakeLists.txt): the GoogleTest suite of
# the scene parser, and command-line tests of the tlfea program (bad input
# exits 2 leaving the output directory untouched, the default scene and every
# example run for a few steps, every command's --help, Ctrl-C stops cleanly).
tlfea_add_test_suite(scene TLFEA::scene)
set(_cli ${CMAKE_CURRENT_SOURCE_DIR}/scene/cli_test.sh)
set(_work ${CMAKE_CURRENT_BINARY_DIR}/scene_cli)
foreach(_case bad_exit_status default_scene examples help restart settle sigint)
  add_test(NAME scene_cli_${_case}
    COMMAND bash ${_cli} ${_case} $<TARGET_FILE:tlfea> ${CMAKE_SOURCE_DIR} ${_work}/${_case})
  set_tests_properties(scene_cli_${_case} PROPERTIES TIMEOUT 600)
endforeach()
