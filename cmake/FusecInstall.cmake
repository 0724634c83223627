# FusecInstall.cmake: `cmake --install` puts fusec in bin/ and a CMake package in
# lib/cmake/fusec/, so that downstream projects can find_package(fusec) and call
# fusec_add_chain(). docs/build-integration.md describes the package.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# Off when fusec is a subproject (add_subdirectory/FetchContent): the parent's
# install then does not ship fusec.
option(FUSEC_INSTALL "Install fusec and its CMake package" ${PROJECT_IS_TOP_LEVEL})
if(NOT FUSEC_INSTALL)
  return()
endif()

set(FUSEC_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/fusec)

install(TARGETS fusec RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/fusecConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/fusecConfig.cmake
  INSTALL_DESTINATION ${FUSEC_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_BINDIR)
# 0.x: a new minor version may change the interface.
write_basic_package_version_file(
  ${CMAKE_CURRENT_BINARY_DIR}/fusecConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${CMAKE_CURRENT_BINARY_DIR}/fusecConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/fusecConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/FusecFunctions.cmake
  DESTINATION ${FUSEC_INSTALL_CMAKEDIR})

# The emitted .cu embeds its runtime: nothing else is needed to use it. The
# README, the docs with their images and the examples go along, laid out as in
# the source tree so that every link between them (README.md to
# docs/img/seed-speedup.png, docs/model.md to img/hosts.png) still works.
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs
        FILES_MATCHING PATTERN "*.md" PATTERN "*.png")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples
        FILES_MATCHING PATTERN "*.fuse" PATTERN "*.c" PATTERN "*.md" PATTERN "CMakeLists.txt" PATTERN "Makefile")
