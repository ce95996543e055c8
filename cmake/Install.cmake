# `cmake --install`: the `alea` binary, the public headers (include/alea/) and
# a CMake package so that a host project does
#
#   find_package(alea REQUIRED)
#   target_link_libraries(host PRIVATE alea::alea)     # static: C and C++ APIs
#   target_link_libraries(host PRIVATE alea::shared)   # libalea.so: the C API
#
# (examples/embed/, docs/embedding.md). alea::shared exists when the build
# had ALEA_SHARED (the release preset), which also compiles asmjit from
# Debian's source package and installs it beside Alea's archives.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(ALEA_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/alea)

# The host links one target, alea::alea: alea_embed under its exported name.
# It drags in the other archives through its link interface; they are
# exported too (as alea::alea_vm...) because an imported static library must
# name what it needs, but they have no installed headers and are not API.
set_target_properties(alea_embed PROPERTIES EXPORT_NAME alea)
if(ALEA_SANITIZE)
  # Sanitized archives call into the ASan/UBSan runtimes, so a host's link
  # needs the flag too; the build tree has it already (add_link_options).
  target_link_options(alea_embed INTERFACE $<INSTALL_INTERFACE:-fsanitize=address,undefined>)
endif()

install(TARGETS alea_embed alea_embed_vm alea_vm alea_stdlib alea_lang alea_compiler
        EXPORT alea-targets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
if(ALEA_SHARED)
  # The C API alone (embed/alea.map); it needs nothing else installed.
  set_target_properties(alea_shared PROPERTIES EXPORT_NAME shared)
  install(TARGETS alea_shared
          EXPORT alea-targets
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
install(TARGETS alea RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# Only the public headers: they include nothing of vm/, lang/... (pimpl).
file(GLOB ALEA_PUBLIC_HEADERS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/include/alea/*.h)
install(FILES ${ALEA_PUBLIC_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/alea)

install(EXPORT alea-targets
        NAMESPACE alea::
        FILE alea-targets.cmake
        DESTINATION ${ALEA_INSTALL_CMAKEDIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/alea-config.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/alea-config.cmake
                              INSTALL_DESTINATION ${ALEA_INSTALL_CMAKEDIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/alea-config-version.cmake
                                 VERSION ${PROJECT_VERSION}
                                 COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/alea-config.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/alea-config-version.cmake
        DESTINATION ${ALEA_INSTALL_CMAKEDIR})
