# Joins source files, in the order given, into one (as SQLite's amalgamation):
#   cmake -DOUT=file -DFILES="a;b;c" -P FusecJoin.cmake
# The output is rewritten only when its content changes.
set(body "")
foreach(f IN LISTS FILES)
  file(READ ${f} part)
  string(APPEND body "${part}")
endforeach()
if(EXISTS ${OUT})
  file(READ ${OUT} old)
  if(old STREQUAL body)
    return()
  endif()
endif()
file(WRITE ${OUT}.tmp "${body}")
file(RENAME ${OUT}.tmp ${OUT})
