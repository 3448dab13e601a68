# One install smoke test, run by ctest as `cmake -P consumer.cmake` with
#   MODE     cmake | pkgconfig | subdirectory (add_subdirectory of WK_SOURCE_DIR)
#   LANG     c | cxx
#   LINK     shared | static
#   PREFIX   the install prefix (made by the install_tree test)
#   WORK     a scratch folder of its own
#   CC, CXX, GENERATOR, LIBDIR (relative), SOURCE (this folder), WK_SOURCE_DIR
cmake_minimum_required(VERSION 3.16)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "failed (${rc}): ${cmd}\n${out}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(exe ${WORK}/game)

if(MODE STREQUAL "cmake")
  set(static OFF)
  if(LINK STREQUAL "static")
    set(static ON)
  endif()
  set(compiler -DCMAKE_C_COMPILER=${CC})
  if(LANG STREQUAL "cxx")
    set(compiler -DCMAKE_CXX_COMPILER=${CXX})
  endif()
  run(${CMAKE_COMMAND} -S ${SOURCE}/consumer_${LANG} -B ${WORK} -G ${GENERATOR}
    ${compiler} -DCMAKE_PREFIX_PATH=${PREFIX} -DWK_STATIC=${static})
  run(${CMAKE_COMMAND} --build ${WORK})
elseif(MODE STREQUAL "subdirectory")
  run(${CMAKE_COMMAND} -S ${SOURCE}/consumer_subdir -B ${WORK} -G ${GENERATOR}
    -DCMAKE_C_COMPILER=${CC} -DCMAKE_CXX_COMPILER=${CXX} -DWK_SOURCE_DIR=${WK_SOURCE_DIR})
  run(${CMAKE_COMMAND} --build ${WORK} --parallel 2)
else()
  set(prefix ${PREFIX})
  set(static "")
  if(LINK STREQUAL "static")
    # A static-only install (as a distribution's -dev package of a static
    # build): -lworldkern can then only be libworldkern.a, and the link only
    # succeeds if Libs.private names every runtime it needs.
    set(prefix ${WORK}/prefix)
    file(COPY ${PREFIX}/ DESTINATION ${prefix})
    file(GLOB shared ${prefix}/${LIBDIR}/libworldkern.so*)
    file(REMOVE ${shared})
    set(static --static)
  endif()
  set(ENV{PKG_CONFIG_PATH} ${prefix}/${LIBDIR}/pkgconfig)
  run(pkg-config --cflags --libs ${static} worldkern)
  separate_arguments(flags UNIX_COMMAND "${out}")
  if(LANG STREQUAL "cxx")
    run(${CXX} -std=c++17 -Wall -o ${exe} ${SOURCE}/consumer_cxx/main.cpp ${flags})
  else()
    run(${CC} -std=c11 -Wall -o ${exe} ${SOURCE}/consumer_c/main.c ${flags})
  endif()
  set(ENV{LD_LIBRARY_PATH} ${prefix}/${LIBDIR})
endif()

run(${exe})
message(STATUS "${MODE} ${LANG} ${LINK}: ${out}")
if(NOT out MATCHES "^worldkern [0-9]+\\.[0-9]+\\.[0-9]+: ")
  message(FATAL_ERROR "unexpected output: ${out}")
endif()
