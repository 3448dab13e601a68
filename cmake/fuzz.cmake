# libFuzzer targets: every tests/<family>/fuzz_<name>.c becomes the
# executable fuzz_<name> in <build>/fuzz, linked with worldkern_static and
# with the tests' helper libraries named in WK_TEST_HELPER_TARGETS (those
# that exist). `cmake --build <dir> --target wk_fuzz` builds them all;
# tools/wk fuzz runs them with their seed corpus tests/<family>/corpus/<name>/.
if(NOT DEFINED WK_TEST_HELPER_TARGETS)
  set(WK_TEST_HELPER_TARGETS wk_checks)
endif()

file(GLOB WK_FUZZ_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/*/fuzz_*.c)
add_custom_target(wk_fuzz)
foreach(source IN LISTS WK_FUZZ_SOURCES)
  get_filename_component(name ${source} NAME_WE)
  get_filename_component(dir ${source} DIRECTORY)
  add_executable(${name} ${source})
  target_include_directories(${name} PRIVATE ${dir} ${PROJECT_SOURCE_DIR}/tests
    ${PROJECT_SOURCE_DIR}/kernels ${PROJECT_SOURCE_DIR}/kernels/core)
  target_link_libraries(${name} PRIVATE worldkern_static)
  foreach(helper IN LISTS WK_TEST_HELPER_TARGETS)
    if(TARGET ${helper})
      target_link_libraries(${name} PRIVATE ${helper})
    endif()
  endforeach()
  target_compile_options(${name} PRIVATE -fsanitize=fuzzer)
  target_link_options(${name} PRIVATE -fsanitize=fuzzer)
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/fuzz)
  add_dependencies(wk_fuzz ${name})
endforeach()
list(LENGTH WK_FUZZ_SOURCES count)
message(STATUS "Fuzz targets: ${count}")
