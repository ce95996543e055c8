# CTest `install.embed_example`, `install.c_example` (cmake -P): installs this
# build tree into a scratch prefix, builds examples/EXAMPLE/ against that
# prefix as a separate project would (find_package(alea)), runs it and
# compares its stdout with examples/EXAMPLE/expected.out. So the exported
# package, its dependencies and the public headers are checked as a host sees
# them, not as the build tree does.
#
# Inputs (-D): EXAMPLE (embed: C++ and alea::alea; c: C and alea::shared),
# BUILD_DIR, SOURCE_DIR, WORK_DIR, GENERATOR, CXX_COMPILER, C_COMPILER, BUILD_TYPE.
cmake_minimum_required(VERSION 3.25)
if(NOT EXAMPLE)
  set(EXAMPLE embed)
endif()
set(example_dir ${SOURCE_DIR}/examples/${EXAMPLE})
set(executable ${EXAMPLE}_example)

set(prefix ${WORK_DIR}/prefix)
set(example_build ${WORK_DIR}/build)
# A fresh prefix and build each run: a stale file must not hide a missing one.
file(REMOVE_RECURSE ${WORK_DIR})

function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " command "${ARGN}")
    message(FATAL_ERROR "failed (${rc}): ${command}\n${out}")
  endif()
endfunction()

step(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
# The same compiler and build type as this tree. Sanitizer flags need no
# passing: a sanitized alea::alea carries -fsanitize in its link options.
step(${CMAKE_COMMAND} -S ${example_dir} -B ${example_build} -G ${GENERATOR}
     -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_C_COMPILER=${C_COMPILER}
     -DCMAKE_BUILD_TYPE=${BUILD_TYPE} -DCMAKE_PREFIX_PATH=${prefix})
step(${CMAKE_COMMAND} --build ${example_build})

execute_process(COMMAND ${example_build}/${executable} RESULT_VARIABLE rc OUTPUT_VARIABLE actual
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${executable} exited with ${rc}\nstdout:\n${actual}\nstderr:\n${err}")
endif()
file(READ ${example_dir}/expected.out expected)
if(NOT actual STREQUAL expected)
  file(WRITE ${WORK_DIR}/actual.out "${actual}")
  execute_process(COMMAND diff -u ${example_dir}/expected.out
                          ${WORK_DIR}/actual.out OUTPUT_VARIABLE diff)
  message(FATAL_ERROR "${executable}'s output differs from expected.out:\n${diff}")
endif()
message(STATUS "${executable}'s output matches expected.out")
