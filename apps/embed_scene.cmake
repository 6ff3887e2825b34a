# cmake -DINPUT=scene.yaml -DOUTPUT=scene.cpp -P embed_scene.cmake: writes the
# YAML text as the C string tlfea_default_scene_yaml (a raw string literal).
file(READ "${INPUT}" _text)
string(FIND "${_text}" ")TLFEA_SCENE\"" _bad)
if(NOT _bad EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw-string delimiter")
endif()
file(WRITE "${OUTPUT}.tmp"
  "// Generated from ${INPUT} by embed_scene.cmake; do not edit.\n"
  "extern const char* tlfea_default_scene_yaml;\n"
  "const char* tlfea_default_scene_yaml = R\"TLFEA_SCENE(${_text})TLFEA_SCENE\";\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
