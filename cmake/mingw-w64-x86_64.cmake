# Cross build for 64-bit Windows with Debian's mingw-w64 (gcc-mingw-w64-x86-64,
# posix threads for OpenMP); tests run under wine64 through
# CMAKE_CROSSCOMPILING_EMULATOR (set WINEDEBUG=-all to quiet it).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# libgcc, libgomp and winpthread linked in: the .exe and .dll need no
# mingw DLLs next to them.
set(CMAKE_EXE_LINKER_FLAGS_INIT -static)
set(CMAKE_SHARED_LINKER_FLAGS_INIT -static)
# Debian's wine64 package puts the loader here; `wine` (package wine) also works.
find_program(WK_WINE NAMES wine64 wine PATHS /usr/lib/wine NO_CMAKE_FIND_ROOT_PATH)
if(WK_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${WK_WINE})
endif()
