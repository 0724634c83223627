# re2c and lemon, found and wrapped: their outputs go to the build tree,
# never into git. Debian 12 ships re2c 3.0 and lemon 3.40.
find_program(RE2C re2c REQUIRED)
find_program(LEMON lemon REQUIRED)
execute_process(COMMAND ${RE2C} --version OUTPUT_VARIABLE _re2c_version OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT _re2c_version MATCHES "re2c ([0-9]+)\\.")
  message(FATAL_ERROR "cannot read the version of ${RE2C}")
elseif(CMAKE_MATCH_1 LESS 3)
  message(FATAL_ERROR "re2c 3.0 or newer is needed (found ${_re2c_version})")
endif()
# lemon has no --version; its template comes with it.
find_file(LEMON_TEMPLATE lempar.c PATHS /usr/share/lemon /usr/local/share/lemon /usr/share/sqlite3 NO_DEFAULT_PATH)
if(NOT LEMON_TEMPLATE)
  message(FATAL_ERROR "lemon's template lempar.c was not found (Debian: apt-get install lemon)")
endif()

function(fusec_re2c input output)
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${RE2C} -W -Werror --no-generation-date --no-version -o ${output} ${input}
    DEPENDS ${input}
    COMMENT "re2c ${input}"
    VERBATIM)
endfunction()

# lemon writes NAME.c, NAME.h and NAME.out into outdir; any conflict fails.
function(fusec_lemon input outdir)
  get_filename_component(name ${input} NAME_WE)
  add_custom_command(
    OUTPUT ${outdir}/${name}.c ${outdir}/${name}.h
    COMMAND ${LEMON} -T${LEMON_TEMPLATE} -d${outdir} ${input}
    DEPENDS ${input} ${LEMON_TEMPLATE}
    COMMENT "lemon ${input}"
    VERBATIM)
endfunction()
