# The shared library exports the public API only: every dynamic symbol it
# defines is wk_<lower case...>, never an internal wk__ one. Every global
# symbol of the static library carries the wk_ prefix (wk__ included), so a
# static link cannot clash with the user's names; the one exception is
# OpenMP's common symbol for a named critical section (.gomp_critical_user_wk_*).
#   cmake -DNM=... -DSHARED=... -DSTATIC=... -P exports.cmake
cmake_minimum_required(VERSION 3.16)

function(symbols out)
  execute_process(COMMAND ${NM} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NM} ${ARGN}: ${err}")
  endif()
  string(REGEX MATCHALL "[^\n]+" lines "${text}")
  set(names "")
  foreach(line IN LISTS lines)
    # "address type name"; skip archive member headers ("file.o:").
    if(line MATCHES "^[0-9a-fA-F]* *[A-Za-z] ([^ ]+)$")
      list(APPEND names ${CMAKE_MATCH_1})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES names)
  set(${out} ${names} PARENT_SCOPE)
endfunction()

set(bad "")
symbols(dynamic -D --defined-only ${SHARED})
foreach(name IN LISTS dynamic)
  if(NOT name MATCHES "^wk_[a-z]" OR name MATCHES "^wk__")
    list(APPEND bad "shared: ${name}")
  endif()
endforeach()
symbols(globals -g --defined-only ${STATIC})
foreach(name IN LISTS globals)
  if(NOT name MATCHES "^(wk_|\\.gomp_critical_user_wk_)")
    list(APPEND bad "static: ${name}")
  endif()
endforeach()
list(LENGTH dynamic count)
message(STATUS "${count} exported symbols")
if(bad)
  string(REPLACE ";" "\n  " bad "${bad}")
  message(FATAL_ERROR "symbols outside the public API:\n  ${bad}")
endif()
