# KBAUDIT_GIT_DESCRIBE: what `kbaudit --version` prints beside the project version. It is
# `git describe --tags --always --dirty` of the source tree, taken when CMake configures (so a
# commit made later shows after the next configure), or the project version outside a git
# checkout (a source tarball) or without git.
set(KBAUDIT_GIT_DESCRIBE "${PROJECT_VERSION}")
find_package(Git QUIET)
if(GIT_FOUND AND EXISTS "${CMAKE_SOURCE_DIR}/.git")
  execute_process(
    COMMAND "${GIT_EXECUTABLE}" describe --tags --always --dirty
    WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
    OUTPUT_VARIABLE describe
    RESULT_VARIABLE describe_rc
    ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(describe_rc EQUAL 0 AND NOT describe STREQUAL "")
    set(KBAUDIT_GIT_DESCRIBE "${describe}")
  endif()
endif()
