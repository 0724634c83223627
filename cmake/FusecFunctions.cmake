# FusecFunctions.cmake: build .fuse chains from CMake. docs/build-integration.md
# describes the interface.
#
#   fusec_add_chain(<target> <file.fuse> [HARNESS | TORCH] [NAME <prefix>] [DTYPE <t>]
#                   [DEVICE <name|file.json>] [FUSEC_ARGS <arg>...])
#   fusec_predict(<file.fuse> OUTPUT <file> [FORMAT json|csv|text] [DTYPE <t>]
#                 [DEVICE <name|file.json>] [FUSEC_ARGS <arg>...])
#
# Safe to include from any project: nothing is checked until a function is called.
include_guard(GLOBAL)

# The fusec executable: the `fusec` target when fusec is built in this project
# (add_subdirectory, FetchContent), else the installed fusec::fusec.
function(_fusec_executable fn out)
  if(TARGET fusec)
    get_target_property(type fusec TYPE)
    if(type STREQUAL "EXECUTABLE")
      set(${out} fusec PARENT_SCOPE)
      return()
    endif()
  endif()
  if(TARGET fusec::fusec)
    set(${out} fusec::fusec PARENT_SCOPE)
    return()
  endif()
  message(FATAL_ERROR "${fn}: no fusec executable: call find_package(fusec) first, "
                      "or add fusec's source tree with add_subdirectory()/FetchContent")
endfunction()

# Arguments shared by both functions: the absolute .fuse path, the fusec options for
# DTYPE/DEVICE/FUSEC_ARGS, and the extra files the output depends on.
macro(_fusec_common fn)
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${fn}: unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(ARG_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "${fn}: missing value for: ${ARG_KEYWORDS_MISSING_VALUES}")
  endif()
  get_filename_component(_fuse "${_fuse}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  # A .fuse that a custom command of this directory makes (its OUTPUT) is
  # GENERATED: it exists only once built, and the rule depends on it.
  get_source_file_property(_generated "${_fuse}" GENERATED)
  if(NOT EXISTS "${_fuse}" AND NOT _generated)
    message(FATAL_ERROR "${fn}: no such file: ${_fuse}")
  endif()
  _fusec_executable(${fn} _exe)
  set(_opts "")
  set(_deps "${_fuse}" ${_exe})
  if(DEFINED ARG_DTYPE)
    list(APPEND _opts "--dtype=${ARG_DTYPE}")
  endif()
  if(DEFINED ARG_DEVICE)
    # A profile file (a path or *.json) is made absolute and becomes a dependency.
    get_filename_component(_dev "${ARG_DEVICE}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(ARG_DEVICE MATCHES "[/.]" OR EXISTS "${_dev}")
      list(APPEND _opts "--device=${_dev}")
      list(APPEND _deps "${_dev}")
    else()
      list(APPEND _opts "--device=${ARG_DEVICE}")
    endif()
  endif()
  list(APPEND _opts ${ARG_FUSEC_ARGS})
endmacro()

function(fusec_add_chain target fuse)
  cmake_parse_arguments(PARSE_ARGV 2 ARG "HARNESS;TORCH" "NAME;DTYPE;DEVICE" "FUSEC_ARGS")
  set(_fuse "${fuse}")
  _fusec_common("fusec_add_chain(${target})")
  if(ARG_HARNESS AND ARG_TORCH)
    message(FATAL_ERROR "fusec_add_chain(${target}): HARNESS and TORCH exclude each other")
  endif()
  get_property(langs GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "CUDA" IN_LIST langs)
    message(FATAL_ERROR "fusec_add_chain(${target}): the CUDA language is not enabled: "
                        "add CUDA to project(... LANGUAGES ...) or call enable_language(CUDA)")
  endif()

  if(DEFINED ARG_NAME)
    set(name "${ARG_NAME}")
  else()
    get_filename_component(name "${_fuse}" NAME_WLE)
  endif()
  if(NOT name MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "fusec_add_chain(${target}): '${name}' is not a C identifier: "
                        "pass NAME <prefix>")
  endif()
  # The prefix names the chain's C functions (<prefix>_fused, ...): two chains of
  # one prefix would define them twice, and a program linking both would call one
  # of them silently. One prefix, one chain, in the whole project.
  get_property(owner GLOBAL PROPERTY "FUSEC_CHAIN_PREFIX_${name}")
  if(owner)
    message(FATAL_ERROR "fusec_add_chain(${target}): the C prefix '${name}' is already the chain of "
                        "target ${owner}; both would define ${name}_fused and ${name}_unfused: "
                        "pass NAME <prefix> to one of them")
  endif()
  set_property(GLOBAL PROPERTY "FUSEC_CHAIN_PREFIX_${name}" "${target}")
  # Without NAME, fusec derives the prefix from the stem itself (and keeps it out of
  # the runtime's names: fx_print.fuse becomes chain_fx_print).
  set(name_opt "")
  if(DEFINED ARG_NAME)
    set(name_opt "--name=${name}")
  endif()

  # One folder per target (as CMake's own <target>.dir): two chains never collide.
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/${target}.fusec")
  set(cu "${dir}/${name}.cu")
  set(h "${dir}/${name}.h")
  if(ARG_TORCH)
    _fusec_add_torch(${target} ${name} "${dir}")
    return()
  endif()
  add_custom_command(
    OUTPUT "${cu}" "${h}"
    COMMAND ${CMAKE_COMMAND} -E make_directory "${dir}"
    COMMAND ${_exe} ${_opts} ${name_opt} "${_fuse}" -o "${cu}"
    COMMAND ${_exe} ${_opts} ${name_opt} --emit=header "${_fuse}" -o "${h}"
    DEPENDS ${_deps}
    COMMENT "fusec: ${name}.cu and ${name}.h from ${fuse}"
    VERBATIM)

  if(ARG_HARNESS)
    add_executable(${target} "${cu}" "${h}")
  else()
    if(NOT TARGET CUDA::toolkit)
      find_package(CUDAToolkit REQUIRED)
    endif()
    add_library(${target} STATIC "${cu}" "${h}")
    target_compile_definitions(${target} PRIVATE FUSEC_NO_HARNESS)
    target_include_directories(${target} PUBLIC "$<BUILD_INTERFACE:${dir}>")
    # The header includes <cuda_runtime_api.h>: CUDA::toolkit gives C and C++ users
    # its directory. The runtime itself CMake links into every program holding CUDA
    # objects, as the program's CUDA_RUNTIME_LIBRARY says (default: static, as nvcc
    # does); adding CUDA::cudart too would put two runtimes on the link line.
    target_link_libraries(${target} PUBLIC CUDA::toolkit)
  endif()
  # Without a build type CMake passes nvcc no -O, and the first timing a user
  # makes would be of unoptimised host code: default to the README's -O3.
  # A build type, or an -O in CMAKE_CUDA_FLAGS, is the user's choice and wins.
  if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES AND NOT CMAKE_CUDA_FLAGS MATCHES "(^| )-O")
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-O3>)
  endif()
  set_target_properties(${target} PROPERTIES FUSEC_CU "${cu}" FUSEC_HEADER "${h}")
endfunction()

# fusec_add_chain(... TORCH): the folder of fusec --emit=torch and a MODULE library
# <dir>/<name>_torch.so of the binding and the kernels, beside <dir>/<name>.py, which
# loads it (docs/torch.md). Reads _fuse, _exe, _opts, _deps, cu and h of the caller.
macro(_fusec_add_torch target name dir)
  get_property(langs GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "CXX" IN_LIST langs)
    message(FATAL_ERROR "fusec_add_chain(${target}): TORCH needs the CXX language: "
                        "add CXX to project(... LANGUAGES ...)")
  endif()
  if(NOT DEFINED TORCH_LIBRARIES OR NOT TARGET torch)
    message(FATAL_ERROR "fusec_add_chain(${target}): TORCH needs PyTorch's CMake package: call "
                        "find_package(Torch REQUIRED) first, with -DCMAKE_PREFIX_PATH set to what "
                        "python3 -c 'import torch; print(torch.utils.cmake_prefix_path)' prints")
  endif()
  set(cpp "${dir}/${name}_torch.cpp")
  set(py "${dir}/${name}.py")
  add_custom_command(
    OUTPUT "${cu}" "${h}" "${cpp}" "${py}"
    COMMAND ${_exe} ${_opts} "--name=${name}" --emit=torch "${_fuse}" -o "${dir}"
    DEPENDS ${_deps}
    COMMENT "fusec: the PyTorch extension ${name} from ${_fuse}"
    VERBATIM)
  add_library(${target} MODULE "${cpp}" "${cu}" "${h}")
  set_source_files_properties("${cu}" PROPERTIES COMPILE_DEFINITIONS FUSEC_NO_HARNESS)
  target_include_directories(${target} PRIVATE "${dir}")
  target_link_libraries(${target} PRIVATE ${TORCH_LIBRARIES})
  # <name>.py looks for <name>_torch.so beside itself.
  set_target_properties(${target} PROPERTIES PREFIX "" OUTPUT_NAME "${name}_torch" SUFFIX ".so"
                        LIBRARY_OUTPUT_DIRECTORY "${dir}" POSITION_INDEPENDENT_CODE ON
                        FUSEC_CU "${cu}" FUSEC_HEADER "${h}" FUSEC_PYTHON "${py}")
endmacro()

function(fusec_predict fuse)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "OUTPUT;FORMAT;DTYPE;DEVICE" "FUSEC_ARGS")
  set(_fuse "${fuse}")
  _fusec_common(fusec_predict)
  if(NOT DEFINED ARG_OUTPUT)
    message(FATAL_ERROR "fusec_predict: OUTPUT <file> is required")
  endif()
  get_filename_component(out "${ARG_OUTPUT}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  if(NOT DEFINED ARG_FORMAT)
    # From the output's extension: .json, .csv, anything else text.
    get_filename_component(ext "${out}" LAST_EXT)
    string(TOLOWER "${ext}" ext)
    set(ARG_FORMAT text)
    if(ext STREQUAL ".json" OR ext STREQUAL ".csv")
      string(SUBSTRING "${ext}" 1 -1 ARG_FORMAT)
    endif()
  endif()
  if(NOT ARG_FORMAT MATCHES "^(json|csv|text)$")
    message(FATAL_ERROR "fusec_predict: FORMAT must be json, csv or text, not '${ARG_FORMAT}'")
  endif()
  get_filename_component(dir "${out}" DIRECTORY)
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} -E make_directory "${dir}"
    COMMAND ${_exe} --predict "--format=${ARG_FORMAT}" ${_opts} "${_fuse}" -o "${out}"
    DEPENDS ${_deps}
    COMMENT "fusec: predicting ${fuse} -> ${ARG_OUTPUT}"
    VERBATIM)
endfunction()
