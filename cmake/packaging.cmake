# `cmake --install` and CPack's .deb (docs/install.md).
#
# The binary is the whole tool: rule YAML and fixtures, suite profiles, problem overlays, the
# Clang stub headers and the kbaudit_probe package are compiled in (cmake/embed_files.cmake), so
# nothing is installed for it to read but Clang's resource headers. Besides it go the
# documentation (rule pages included), the shipped examples, and what an installed kbaudit needs
# for its runtime probes and cannot carry: a script that makes their Python environment (torch,
# Triton) at <prefix>/lib/kbaudit/venv, where the binary looks
# (analyzers/source/include/kbaudit/source/install_layout.h).
include(GNUInstallDirs)

install(TARGETS kbaudit RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# Clang's resource headers (stddef.h, stdint.h, the CUDA builtins: 21 MB, 1.4 MB gzip-compressed in the .deb)
# that the C++/CUDA front end parses embedded sources with. The binary reads <prefix>/lib/kbaudit/
# clang when it is there (install_layout.h), so an installed kbaudit parses what build/kbaudit
# parses on a machine without libclang-common-14-dev; without them every `size_t` in a CUDA source
# is an unknown type. `lib`, not CMAKE_INSTALL_LIBDIR: the binary looks beside its bin/.
install(DIRECTORY ${KBAUDIT_CLANG_RESOURCE_DIR}/include DESTINATION lib/kbaudit/clang)
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY examples/ DESTINATION ${CMAKE_INSTALL_DATADIR}/kbaudit/examples)
install(FILES runtime_checks/probe-requirements.txt DESTINATION ${CMAKE_INSTALL_DATADIR}/kbaudit)
install(PROGRAMS packaging/kbaudit-probe-venv DESTINATION ${CMAKE_INSTALL_DATADIR}/kbaudit)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME kbaudit)
set(CPACK_PACKAGE_VENDOR "kbaudit")
set(CPACK_PACKAGE_CONTACT "kbaudit maintainers <kbaudit@example.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "audits GPU-kernel benchmark submissions for reward hacking")
set(CPACK_PACKAGE_DESCRIPTION
    "kbaudit reads KernelBench, KernelBench-v3/Hard, GPU MODE and pygpubench submissions (Python,\n\
embedded C++/CUDA, Triton) with tree-sitter and Clang, runs its rules and writes annotations,\n\
SARIF and an HTML report. Optional sandboxed runtime probes need a Python with torch:\n\
/usr/share/kbaudit/kbaudit-probe-venv makes one.")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# The build is RelWithDebInfo (about 250 MB binary, LLVM and Clang linked in); the package carries it stripped.
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# Depends: dpkg-shlibdeps reads the libraries the binary links (yaml-cpp, libstdc++, ...; LLVM 14
# and clang-cpp 14 only with -DKBAUDIT_STATIC_LLVM=OFF) and names the Debian packages that ship them.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The runtime probes and the venv script need Debian's python3 with venv; nvcc (compiled evidence)
# is looked up on PATH and optional.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3, python3-venv")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3-dev, nvidia-cuda-toolkit")
include(CPack)
