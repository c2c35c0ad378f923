# kbaudit_embed(OUTPUT out.cpp SYMBOL name BASE dir HEADER h NAMESPACE ns COMMENT text FILES a b ...)
# A build step that writes OUTPUT, a C++ source holding FILES as string literals keyed by their
# path relative to BASE (cmake/embed_files.cmake does the writing), so the binary carries its data
# and runs from any directory. Rebuilt when a file or the script changes.
function(kbaudit_embed)
  cmake_parse_arguments(E "" "OUTPUT;SYMBOL;BASE;HEADER;NAMESPACE;COMMENT" "FILES" ${ARGN})
  add_custom_command(
    OUTPUT ${E_OUTPUT}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${E_OUTPUT} -DSYMBOL=${E_SYMBOL} -DBASE=${E_BASE} "-DFILES=${E_FILES}"
            -DHEADER=${E_HEADER} -DNAMESPACE=${E_NAMESPACE} -P ${CMAKE_SOURCE_DIR}/cmake/embed_files.cmake
    DEPENDS ${E_FILES} ${CMAKE_SOURCE_DIR}/cmake/embed_files.cmake
    COMMENT "${E_COMMENT}"
    VERBATIM)
endfunction()
