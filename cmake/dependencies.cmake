# Optional runtimes: OpenMP and SLEEF.
#
# Objects get compile flags through WK_DEP_OBJECT_TARGETS / WK_DEP_DEFINITIONS /
# WK_DEP_INCLUDE_DIRS; the libraries link the runtimes through
# WK_DEP_LINK_TARGETS, small imported targets (worldkern::openmp_runtime,
# worldkern::sleef) that worldkernConfig.cmake recreates for consumers of the
# static library. That way a consumer needs no find_package(OpenMP) in any
# language and gets no -fopenmp, only the runtime on its link line.
# WK_PC_LIBS_PRIVATE collects the same for the .pc file.

set(WK_DEP_OBJECT_TARGETS "")
set(WK_DEP_DEFINITIONS "")
set(WK_DEP_INCLUDE_DIRS "")
set(WK_DEP_LINK_TARGETS "")
set(WK_PC_LIBS_PRIVATE "")
set(WK_OPENMP_RUNTIME "")   # what the config file links: paths (names on Windows)
set(WK_USE_OPENMP OFF)

# Appends -l<name> to the .pc, with -L<dir> unless the linker searches
# <dir> anyway (gcc finds its own libgomp; clang's libomp is elsewhere).
function(wk_pc_lib name path)
  set(flags "-l${name}")
  if(path AND NOT WIN32)
    get_filename_component(dir "${path}" DIRECTORY)
    if(NOT dir IN_LIST CMAKE_C_IMPLICIT_LINK_DIRECTORIES)
      set(flags "-L${dir} ${flags}")
    endif()
  endif()
  set(WK_PC_LIBS_PRIVATE "${WK_PC_LIBS_PRIVATE} ${flags}" PARENT_SCOPE)
endfunction()

if(WK_ENABLE_OPENMP)
  find_package(OpenMP COMPONENTS C)
  if(OpenMP_C_FOUND)
    set(WK_USE_OPENMP ON)
  else()
    message(WARNING "WK_ENABLE_OPENMP: the C compiler has no OpenMP; building single-threaded")
  endif()
endif()

if(WK_USE_OPENMP)
  find_package(Threads REQUIRED)
  list(APPEND WK_DEP_OBJECT_TARGETS OpenMP::OpenMP_C)
  list(APPEND WK_DEP_DEFINITIONS WK_HAVE_OPENMP)
  set(runtime_names ${OpenMP_C_LIB_NAMES})
  list(REMOVE_DUPLICATES runtime_names)
  foreach(name IN LISTS runtime_names)
    if(name MATCHES "^(pthread|mingwthrd)$" AND NOT WIN32)
      continue()   # Threads::Threads covers it
    endif()
    if(WIN32)
      # By name, so that -static picks libgomp.a instead of libgomp.dll.a.
      list(APPEND WK_OPENMP_RUNTIME ${name})
    else()
      # By path: libomp lives outside g++'s search path.
      list(APPEND WK_OPENMP_RUNTIME ${OpenMP_${name}_LIBRARY})
    endif()
    wk_pc_lib(${name} "${OpenMP_${name}_LIBRARY}")
  endforeach()
  if(NOT WIN32)
    string(APPEND WK_PC_LIBS_PRIVATE " -lpthread")
  endif()
  add_library(worldkern::openmp_runtime INTERFACE IMPORTED)
  set_target_properties(worldkern::openmp_runtime PROPERTIES
    INTERFACE_LINK_LIBRARIES "${WK_OPENMP_RUNTIME};Threads::Threads")
  list(APPEND WK_DEP_LINK_TARGETS worldkern::openmp_runtime)
  message(STATUS "OpenMP runtime: ${WK_OPENMP_RUNTIME}")
endif()

# SLEEF (Debian: libsleef-dev, no CMake config): find it by hand.
find_library(WK_SLEEF_LIBRARY NAMES sleef)
find_path(WK_SLEEF_INCLUDE_DIR NAMES sleef.h)
if(WK_SLEEF_LIBRARY AND WK_SLEEF_INCLUDE_DIR)
  set(sleef_found ON)
else()
  set(sleef_found OFF)
endif()
option(WK_USE_SLEEF "Use SLEEF for vector transcendental functions" ${sleef_found})
if(WK_USE_SLEEF)
  if(NOT sleef_found)
    message(FATAL_ERROR "WK_USE_SLEEF=ON but SLEEF was not found (Debian: libsleef-dev); "
      "set WK_SLEEF_LIBRARY and WK_SLEEF_INCLUDE_DIR, or WK_USE_SLEEF=OFF")
  endif()
  list(APPEND WK_DEP_DEFINITIONS WK_HAVE_SLEEF)
  list(APPEND WK_DEP_INCLUDE_DIRS ${WK_SLEEF_INCLUDE_DIR})
  add_library(worldkern::sleef INTERFACE IMPORTED)
  set_target_properties(worldkern::sleef PROPERTIES INTERFACE_LINK_LIBRARIES "${WK_SLEEF_LIBRARY}")
  list(APPEND WK_DEP_LINK_TARGETS worldkern::sleef)
  wk_pc_lib(sleef "${WK_SLEEF_LIBRARY}")
  message(STATUS "SLEEF: ${WK_SLEEF_LIBRARY}")
else()
  message(STATUS "SLEEF not used")
endif()

if(NOT MSVC)
  list(APPEND WK_DEP_LINK_TARGETS m)
  string(APPEND WK_PC_LIBS_PRIVATE " -lm")
endif()
string(STRIP "${WK_PC_LIBS_PRIVATE}" WK_PC_LIBS_PRIVATE)
