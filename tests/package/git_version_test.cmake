# cmake -DSOURCE=<kbaudit source> -DEMPTY=<a directory outside git> -P git_version_test.cmake
# The version cmake/git_version.cmake gives: the project version outside a git checkout, and
# `git describe --tags --always --dirty` inside one.
set(PROJECT_VERSION 9.8.7)
set(CMAKE_SOURCE_DIR "${EMPTY}")
include("${SOURCE}/cmake/git_version.cmake")
if(NOT KBAUDIT_GIT_DESCRIBE STREQUAL "9.8.7")
  message(FATAL_ERROR "outside git: '${KBAUDIT_GIT_DESCRIBE}', expected the project version 9.8.7")
endif()
if(EXISTS "${SOURCE}/.git")
  find_package(Git REQUIRED)
  execute_process(COMMAND "${GIT_EXECUTABLE}" describe --tags --always --dirty WORKING_DIRECTORY "${SOURCE}"
                  OUTPUT_VARIABLE expected OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(CMAKE_SOURCE_DIR "${SOURCE}")
  include("${SOURCE}/cmake/git_version.cmake")
  if(NOT KBAUDIT_GIT_DESCRIBE STREQUAL expected OR expected STREQUAL "")
    message(FATAL_ERROR "in git: '${KBAUDIT_GIT_DESCRIBE}', expected '${expected}'")
  endif()
  message(STATUS "in git: ${KBAUDIT_GIT_DESCRIBE}; outside git: 9.8.7")
endif()
